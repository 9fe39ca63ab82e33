import type { Change, ChangeListener } from '../events/change-bus.js';

/** The content type whose version a media library write bumps. */
export const MEDIA_TYPE = 'plugin::upload.file';

/**
 * A version per content type, moved by the change bus only: every change (this instance's
 * writes, and other instances' once the bus relays them) bumps the version of the type it wrote,
 * synchronously, in the bus listener — so before the write's response is sent, since writers
 * publish after their commit and before they answer.
 *
 * Versions are numbers of one sequence: a bump gives the type the next number. The version of a
 * set of types is then the largest of theirs, and it changes exactly when one of them is bumped,
 * so a cached answer is checked with one number. Numbers mean nothing outside this instance.
 */
export interface TypeVersions {
  /** The last number given out: a read that starts now sees every change up to it. */
  readonly sequence: number;
  /** The version of a set of types: the last bump of any of them (0 when none was bumped). */
  versionOf(types: Iterable<string>): number;
  /** A change to `uid` committed. */
  bump(uid: string): void;
  /** The bus listener bumping the type of each change (documents: their type; media: the file type). */
  readonly listener: ChangeListener;
}

/** Creates the versions of one instance, all at 0. */
export function createTypeVersions(): TypeVersions {
  const last = new Map<string, number>();
  let sequence = 0;
  const bump = (uid: string) => {
    sequence += 1;
    last.set(uid, sequence);
  };
  return {
    get sequence() {
      return sequence;
    },
    versionOf(types) {
      let version = 0;
      for (const uid of types) version = Math.max(version, last.get(uid) ?? 0);
      return version;
    },
    bump,
    listener: {
      changed(change: Change) {
        if (change.subject === 'document') bump(change.type.uid);
        else if (change.subject === 'media') bump(MEDIA_TYPE);
      },
    },
  };
}
