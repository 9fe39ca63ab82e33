import type { ChangeBus, SettingsChangeKind } from '../events/change-bus.js';

/** What an instance reads again for each kind of settings change. */
export type SettingsReloads = Readonly<Record<SettingsChangeKind, () => Promise<void>>>;

/**
 * `reload` (called after an edit of settings committed), followed by the publication of the
 * `kind` settings change once this instance holds the new settings: the other instances reload
 * theirs when they hear it (see {@link reloadRemoteSettings}). `await announced()` resolves
 * when this instance's reload is done, as `await reload()` did.
 */
export function announceAfter(
  changes: ChangeBus,
  kind: SettingsChangeKind,
  reload: () => Promise<void>,
  now: () => Date,
): () => Promise<void> {
  return async () => {
    await reload();
    changes.publish({ subject: 'settings', kind, at: now() });
  };
}

/**
 * Reloads what another instance changed: each remote settings change runs its kind's reload
 * (failures go to `onError`). Returns what stops listening.
 */
export function reloadRemoteSettings(
  changes: ChangeBus,
  reloads: SettingsReloads,
  onError: (error: unknown) => void,
): () => void {
  return changes.subscribe({
    changed(change, origin) {
      if (origin === 'remote' && change.subject === 'settings') reloads[change.kind]().catch(onError);
    },
  });
}
