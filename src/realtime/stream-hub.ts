import type { AccessControl, Principal } from '../access/principal.js';
import type { RealtimeConfig } from '../config/realtime-config.js';
import { RateLimitError } from '../core/errors.js';
import type { DocumentService } from '../documents/document-service.js';
import type { ChangeListener } from '../events/change-bus.js';
import type { StreamSink } from '../http/http-types.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import { createEventLog, type LoggedChange } from './event-log.js';
import { eventsFor, formatEvent } from './stream-events.js';

/** One stream to open: the caller's view of `type` through `query` (already parsed and authorized). */
export interface StreamRequest {
  readonly type: ContentType;
  readonly query: Query;
  readonly caller: Principal;
  /** Who the connection limit counts against: a token, a user, or the address of a Public caller. */
  readonly callerKey: string;
  /** `Last-Event-ID` (header or `lastEventId` parameter): replay what came after it. */
  readonly lastEventId: string | null;
}

/**
 * The realtime streams: listens to the change bus and writes each change of a type to the streams
 * of that type, read as their GET would read it. Streams of one type with the same permission key
 * and the same parsed query form a group that reads each change once, whatever its size; each
 * group reads its changes one after the other, so a stream's events keep commit order.
 */
export interface StreamHub {
  /** The bus listener (subscribed by the composition root). */
  readonly listener: ChangeListener;
  /** Takes one of the caller's connections (RateLimitError past the limit); call the result if the stream never opens. */
  admit(callerKey: string): () => void;
  /** Attaches an admitted stream to its group; it leaves (and frees its connection) when the sink closes. */
  attach(request: StreamRequest, sink: StreamSink): void;
  /** Open streams (tests watch it fall back to 0). */
  connections(): number;
  /** Ends every stream (server close). */
  close(): void;
}

interface Member {
  readonly sink: StreamSink;
  /** Live changes up to this seq are not this member's (before it joined, or replayed). */
  readonly since: number;
}

interface Group {
  readonly key: string;
  readonly type: ContentType;
  readonly query: Query;
  readonly caller: Principal;
  readonly members: Set<Member>;
  chain: Promise<void>;
}

/** Builds the hub once, in the composition root. */
export function createStreamHub(deps: {
  readonly config: RealtimeConfig;
  readonly service: DocumentService;
  readonly access: AccessControl;
  readonly now: () => number;
  readonly onError: (error: unknown) => void;
}): StreamHub {
  const { config, access } = deps;
  const log = createEventLog({ maxEvents: config.replayEvents, windowMs: config.replayWindowMs, now: deps.now });
  const groups = new Map<string, Group>();
  const byType = new Map<string, Set<Group>>();
  const perCaller = new Map<string, number>();
  const open = new Set<StreamSink>();
  let unshared = 0;

  /** Writes the events of `change` to the group's members (or to `only`), read once for all. */
  const deliver = async (group: Group, change: LoggedChange, only?: Member) => {
    const targets = only ? [only] : [...group.members].filter((member) => member.since < change.seq);
    if (targets.length === 0) return;
    if (!access.can(group.caller, `${group.type.uid}.find`)) {
      // The permission was withdrawn since the streams opened: they end (a reconnect gets the 403).
      for (const member of targets) member.sink.end();
      return;
    }
    try {
      const events = await eventsFor(deps.service, group, change);
      const text = events.map((event) => formatEvent(log.idOf(change.seq), event)).join('');
      if (text) for (const member of targets) member.sink.write(text);
    } catch (error) {
      deps.onError(error);
    }
  };
  const enqueue = (group: Group, task: () => Promise<void>) => {
    group.chain = group.chain.then(task);
  };

  return {
    listener: {
      changed(change) {
        if (change.subject !== 'document' || change.type.origin !== 'api') return;
        const logged = log.append(change.type.uid, change);
        for (const group of byType.get(change.type.uid) ?? []) enqueue(group, () => deliver(group, logged));
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
      const permissions = access.permissionKey(request.caller) ?? `unshared:${++unshared}`;
      const key = `${request.type.uid}\n${permissions}\n${queryKey(request.query)}`;
      let group = groups.get(key);
      if (!group) {
        group = { key, ...request, members: new Set(), chain: Promise.resolve() };
        groups.set(key, group);
        const ofType = byType.get(request.type.uid) ?? new Set();
        ofType.add(group);
        byType.set(request.type.uid, ofType);
      }
      const upTo = log.lastSeq;
      const member: Member = { sink, since: upTo };
      group.members.add(member);
      open.add(sink);
      sink.write(`retry: 3000\n: connected\n\n`);
      const heartbeat = setInterval(() => sink.write(': heartbeat\n\n'), config.heartbeatMs);
      heartbeat.unref();
      const joined = group;
      sink.onClose(() => {
        clearInterval(heartbeat);
        open.delete(sink);
        joined.members.delete(member);
        if (joined.members.size === 0 && groups.get(key) === joined) {
          groups.delete(key);
          byType.get(joined.type.uid)?.delete(joined);
        }
      });
      if (request.lastEventId === null) return;
      const resume = log.resume(request.type.uid, request.lastEventId, upTo);
      if (resume.kind === 'reset') {
        sink.write(
          formatEvent(log.idOf(upTo), {
            event: 'reset',
            data: { reason: 'Last-Event-ID is no longer in the replay window; reload' },
          }),
        );
        return;
      }
      for (const change of resume.changes) enqueue(joined, () => deliver(joined, change, member));
    },
    connections: () => open.size,
    close() {
      for (const sink of [...open]) sink.end();
    },
  };
}

/** A parsed query as a group key (filter values may be bigints, which JSON cannot name). */
function queryKey(query: Query): string {
  return JSON.stringify(query, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}
