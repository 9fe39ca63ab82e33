/**
 * Old row ids (the archive's) → new row ids (the destination's), per model uid: filled while
 * entities and their components are written, read when links are. Strapi's import keeps the same
 * table (its "entities mapper").
 */
export class IdMap {
  private readonly byType = new Map<string, Map<number, number>>();

  set(type: string, oldId: number, newId: number): void {
    let ids = this.byType.get(type);
    if (!ids) this.byType.set(type, (ids = new Map()));
    ids.set(oldId, newId);
  }

  /** The new id of an old row, or undefined when the row was not transferred. */
  get(type: string, oldId: number): number | undefined {
    return this.byType.get(type)?.get(oldId);
  }
}
