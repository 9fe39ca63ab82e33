import type { AccessControl, Principal } from '../access/principal.js';
import type { RealtimeConfig } from '../config/realtime-config.js';
import { ApplicationError, RateLimitError } from '../core/errors.js';
import type { DocumentService } from '../documents/document-service.js';
import type { ChangeListener, SettingsChangeKind } from '../events/change-bus.js';
import type { StreamSink } from '../http/http-types.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import { createEventLog, type LoggedChange } from './event-log.js';
import { credentialExpiry, recheckCredential } from './stream-credentials.js';
import { eventsFor, formatEvent, type CloseReason } from './stream-events.js';
import { createOutbox, type StreamOutbox } from './stream-outbox.js';

/** One stream to open: the caller's view of `type` through `query` (already parsed and authorized). */
export interface StreamRequest {
  readonly type: ContentType;
  readonly query: Query;
  readonly caller: Principal;
  /** The `Authorization` value the caller proved itself with (undefined for Public): checked again when credentials change. */
  readonly credential: string | undefined;
  /** Who the connection limit counts against: a token, a user, or the address of a Public caller. */
  readonly callerKey: string;
  /** `Last-Event-ID` (header or `lastEventId` parameter): replay what came after it. */
  readonly lastEventId: string | null;
}

/**
 * The realtime streams: listens to the change bus and writes each change of a type to the streams
 * of that type, read as their GET would read it, one change after the other per type (a stream's
 * events keep commit order). Each stream is authorized on its own for each change, with its own
 * caller's permissions as they are then: streams whose callers hold the same permission set
 * (re-resolved at each change) and the same query share one read. A stream ends with a `close`
 * event when its client reads too slowly (stream-outbox.ts), when its caller may no longer `find`
 * the type, or when its credential expires or is refused once checked again (`recheck`).
 */
export interface StreamHub {
  /** The bus listener (subscribed by the composition root). */
  readonly listener: ChangeListener;
  /** Takes one of the caller's connections (RateLimitError past the limit); call the result if the stream never opens. */
  admit(callerKey: string): () => void;
  /** Attaches an admitted stream; it leaves (and frees its connection) when the sink closes. */
  attach(request: StreamRequest, sink: StreamSink): void;
  /**
   * Checks every stream's credential and permission again (after API tokens, users, sessions or
   * roles changed): the ones refused end. The listener calls it for this instance's changes; the
   * composition root once another instance's change is reloaded.
   */
  recheck(): void;
  /** Open streams (tests watch it fall back to 0). */
  connections(): number;
  /** Ends every stream (server close). */
  close(): void;
}

/** The settings changes after which the hub checks its streams' credentials again. */
export const RECHECKED_SETTINGS: readonly SettingsChangeKind[] = [
  'users-permissions-roles',
  'users-permissions-settings',
  'users-permissions-accounts',
  'api-tokens',
  'admin-permissions',
];

/** The longest delay a timer takes (about 24.8 days); a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Member {
  readonly id: number;
  readonly type: ContentType;
  readonly query: Query;
  /** The query as a key: members of one type with the same key and permission set share a read. */
  readonly queryKey: string;
  readonly credential: string | undefined;
  caller: Principal;
  expiresAt: number | null;
  expiry: NodeJS.Timeout | null;
  readonly outbox: StreamOutbox;
  /** Live changes up to this seq are not this member's (before it joined, or replayed). */
  readonly since: number;
}

interface TypeStreams {
  readonly members: Set<Member>;
  chain: Promise<void>;
}

/** Builds the hub once, in the composition root. */
export function createStreamHub(deps: {
  readonly config: RealtimeConfig;
  readonly service: DocumentService;
  readonly access: AccessControl;
  /** The user type: a change of one of its documents (blocked, deleted, role) checks credentials again. */
  readonly accountsType: string;
  readonly now: () => number;
  readonly onError: (error: unknown) => void;
  /** A stream the server ended, and why (the composition root logs it). */
  readonly onEnded: (type: ContentType, reason: CloseReason) => void;
}): StreamHub {
  const { config, access } = deps;
  const log = createEventLog({ maxEvents: config.replayEvents, windowMs: config.replayWindowMs, now: deps.now });
  const byType = new Map<string, TypeStreams>();
  const perCaller = new Map<string, number>();
  const members = new Set<Member>();
  let lastMemberId = 0;
  const findOf = (member: Member) => `${member.type.uid}.find`;

  /** Ends `member` with a `close` event when its caller may not read or its credential expired. */
  const refused = (member: Member): boolean => {
    if (member.outbox.ended) return true;
    if (member.expiresAt !== null && member.expiresAt <= deps.now()) member.outbox.finish('expired');
    else if (!access.can(member.caller, findOf(member))) member.outbox.finish('forbidden');
    return member.outbox.ended;
  };

  /** Writes the events of `change` to the type's members (or to `only`), one read per permission set and query. */
  const deliver = async (streams: TypeStreams, change: LoggedChange, only?: Member) => {
    const targets = only ? [only] : [...streams.members].filter((member) => member.since < change.seq);
    const shared = new Map<string, Member[]>();
    for (const member of targets) {
      if (refused(member)) continue;
      const key = `${access.permissionKey(member.caller) ?? `member:${member.id}`}\n${member.queryKey}`;
      const sharing = shared.get(key);
      if (sharing) sharing.push(member);
      else shared.set(key, [member]);
    }
    await Promise.all([...shared.values()].map((sharing) => deliverTo(sharing, change)));
  };
  const deliverTo = async (sharing: readonly Member[], change: LoggedChange) => {
    try {
      const events = await eventsFor(deps.service, sharing[0] as Member, change);
      const text = events.map((event) => formatEvent(log.idOf(change.seq), event)).join('');
      if (text) for (const member of sharing) member.outbox.send(text);
    } catch (error) {
      // The query no longer holds for these permissions (a filter on what may no longer be read).
      if (error instanceof ApplicationError && error.status < 500) end(sharing, 'forbidden');
      else deps.onError(error);
    }
  };
  const end = (ending: Iterable<Member>, reason: CloseReason) => {
    for (const member of ending) member.outbox.finish(reason);
  };
  const enqueue = (streams: TypeStreams, task: () => Promise<void>) => {
    streams.chain = streams.chain.then(task);
  };

  /** Ends the stream once its credential's expiry is reached (checked against `now`, waited for in steps). */
  const watchExpiry = (member: Member) => {
    if (member.expiry) clearTimeout(member.expiry);
    member.expiry = null;
    if (member.expiresAt === null || member.outbox.ended) return;
    const wait = Math.min(Math.max(member.expiresAt - deps.now(), 0), MAX_TIMER_MS);
    member.expiry = setTimeout(() => {
      if (!refused(member)) watchExpiry(member);
    }, wait);
    member.expiry.unref();
  };

  let rechecking = false;
  let recheckAgain = false;
  const recheckAll = async () => {
    const byCredential = new Map<string | undefined, Member[]>();
    for (const member of members) {
      const same = byCredential.get(member.credential);
      if (same) same.push(member);
      else byCredential.set(member.credential, [member]);
    }
    for (const [credential, holding] of byCredential) {
      const first = holding[0] as Member;
      const outcome = await recheckCredential(access, credential, first.expiresAt, deps.now());
      if ('reason' in outcome) end(holding, outcome.reason);
      else
        for (const member of holding) {
          member.caller = outcome.caller;
          member.expiresAt = credentialExpiry(outcome.caller, credential);
          if (!refused(member)) watchExpiry(member);
        }
    }
  };
  const recheck = () => {
    if (rechecking) {
      recheckAgain = true;
      return;
    }
    rechecking = true;
    void recheckAll()
      .catch(deps.onError)
      .finally(() => {
        rechecking = false;
        if (recheckAgain) {
          recheckAgain = false;
          recheck();
        }
      });
  };

  return {
    listener: {
      changed(change, origin) {
        if (change.subject === 'settings') {
          // Another instance's change is rechecked once this one reloaded it (the composition root).
          if (origin === 'local' && RECHECKED_SETTINGS.includes(change.kind)) recheck();
          return;
        }
        if (change.subject !== 'document') return;
        if (change.type.uid === deps.accountsType) recheck();
        if (change.type.origin !== 'api') return;
        const logged = log.append(change.type.uid, change);
        const streams = byType.get(change.type.uid);
        if (streams) enqueue(streams, () => deliver(streams, logged));
      },
    },
    admit(callerKey) {
      const count = perCaller.get(callerKey) ?? 0;
      if (count >= config.maxConnectionsPerCaller)
        throw new RateLimitError('Too many open streams, close one before opening another.');
      perCaller.set(callerKey, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (perCaller.get(callerKey) ?? 1) - 1;
        if (left > 0) perCaller.set(callerKey, left);
        else perCaller.delete(callerKey);
      };
    },
    attach(request, sink) {
      let streams = byType.get(request.type.uid);
      if (!streams) byType.set(request.type.uid, (streams = { members: new Set(), chain: Promise.resolve() }));
      const upTo = log.lastSeq;
      const member: Member = {
        id: ++lastMemberId,
        type: request.type,
        query: request.query,
        queryKey: queryKey(request.query),
        credential: request.credential,
        caller: request.caller,
        expiresAt: credentialExpiry(request.caller, request.credential),
        expiry: null,
        outbox: createOutbox(sink, config.maxBufferedBytes, (reason) => deps.onEnded(request.type, reason)),
        since: upTo,
      };
      streams.members.add(member);
      members.add(member);
      sink.write(`retry: 3000\n: connected\n\n`);
      // Each heartbeat checks the stream's expiry and permission too: an idle stream ends as well.
      const heartbeat = setInterval(() => {
        if (!refused(member)) member.outbox.send(': heartbeat\n\n');
      }, config.heartbeatMs);
      heartbeat.unref();
      watchExpiry(member);
      const joined = streams;
      sink.onClose(() => {
        clearInterval(heartbeat);
        if (member.expiry) clearTimeout(member.expiry);
        members.delete(member);
        joined.members.delete(member);
        if (joined.members.size === 0 && byType.get(request.type.uid) === joined) byType.delete(request.type.uid);
      });
      if (request.lastEventId === null) return;
      const resume = log.resume(request.type.uid, request.lastEventId, upTo);
      if (resume.kind === 'reset') {
        member.outbox.send(
          formatEvent(log.idOf(upTo), {
            event: 'reset',
            data: { reason: 'Last-Event-ID is no longer in the replay window; reload' },
          }),
        );
        return;
      }
      for (const change of resume.changes) enqueue(joined, () => deliver(joined, change, member));
    },
    recheck,
    connections: () => members.size,
    close() {
      end([...members], 'shutdown');
    },
  };
}

/** A parsed query as a key (filter values may be bigints, which JSON cannot name). */
function queryKey(query: Query): string {
  return JSON.stringify(query, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}
