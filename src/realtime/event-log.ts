import type { DocumentChangeKind } from '../events/change-bus.js';

/** One change of a content type's document, as a stream replays it: what changed, not its content. */
export interface LoggedChange {
  /** Monotonic within the log (across types): the `id:` of the events it becomes. */
  readonly seq: number;
  readonly kind: DocumentChangeKind;
  readonly documentId: string;
  /** The locale written, null for every locale or a type that is not localized. */
  readonly locale: string | null;
  /** A create or update that also published (draft & publish without `status=draft`). */
  readonly published: boolean;
  /** When it was logged (ms since the epoch). */
  readonly at: number;
}

/** Where a `Last-Event-ID` leaves a client: the changes it missed, or `reset` when they are gone. */
export type ResumePoint =
  { readonly kind: 'replay'; readonly changes: readonly LoggedChange[] } | { readonly kind: 'reset' };

/**
 * A bounded log of recent document changes per content type, for `Last-Event-ID` resume. Event
 * ids are `<epoch>.<seq>`: the epoch names this log (one per server start), so an id from an
 * earlier start, or another instance, is never mistaken for one of ours.
 *
 *   append('api::article.article', …) → { seq: 7, … }, id '<epoch>.7'
 *   resume(type, '<epoch>.5')          → replay of the type's changes 6 and 7 (when still kept)
 *   resume(type, '<epoch>.1')          → reset once a change after 1 was dropped (count or age)
 *   resume(type, 'something-else')     → reset
 */
export interface EventLog {
  /** The id of the event built from the change `seq`. */
  idOf(seq: number): string;
  /** The newest seq handed out (0 before any change). */
  readonly lastSeq: number;
  append(uid: string, change: Omit<LoggedChange, 'seq' | 'at'>): LoggedChange;
  /** The type's changes after `lastEventId` up to `upTo`, or `reset` when some are no longer kept. */
  resume(uid: string, lastEventId: string, upTo: number): ResumePoint;
}

/** A log keeping at most `maxEvents` changes per type, none older than `windowMs`. */
export function createEventLog(options: {
  readonly maxEvents: number;
  readonly windowMs: number;
  readonly now: () => number;
}): EventLog {
  const epoch = options.now().toString(36);
  const byType = new Map<string, { kept: LoggedChange[]; droppedUpTo: number }>();
  let lastSeq = 0;
  const prune = (entry: { kept: LoggedChange[]; droppedUpTo: number }) => {
    const oldest = options.now() - options.windowMs;
    let drop = 0;
    while (
      drop < entry.kept.length &&
      (entry.kept.length - drop > options.maxEvents || (entry.kept[drop]?.at ?? 0) < oldest)
    )
      drop += 1;
    if (drop === 0) return;
    entry.droppedUpTo = entry.kept[drop - 1]?.seq ?? entry.droppedUpTo;
    entry.kept.splice(0, drop);
  };
  return {
    idOf: (seq) => `${epoch}.${seq}`,
    get lastSeq() {
      return lastSeq;
    },
    append(uid, change) {
      const logged: LoggedChange = { ...change, seq: ++lastSeq, at: options.now() };
      let entry = byType.get(uid);
      if (!entry) byType.set(uid, (entry = { kept: [], droppedUpTo: 0 }));
      entry.kept.push(logged);
      prune(entry);
      return logged;
    },
    resume(uid, lastEventId, upTo) {
      const dot = lastEventId.lastIndexOf('.');
      const seq = Number(lastEventId.slice(dot + 1));
      if (lastEventId.slice(0, dot) !== epoch || !Number.isSafeInteger(seq) || seq < 0 || seq > upTo)
        return { kind: 'reset' };
      const entry = byType.get(uid);
      if (!entry) return { kind: 'replay', changes: [] };
      prune(entry);
      if (seq < entry.droppedUpTo) return { kind: 'reset' };
      return { kind: 'replay', changes: entry.kept.filter((change) => change.seq > seq && change.seq <= upTo) };
    },
  };
}
