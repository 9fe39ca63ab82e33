/** One Server-Sent Event as a browser's EventSource dispatches it. */
export interface SseEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
  /** `data` parsed as JSON (undefined when it is not JSON). */
  readonly json: any;
}

/** An open `text/event-stream` response read over real HTTP (or the error answer that refused it). */
export interface SseStream {
  readonly status: number;
  readonly headers: Headers;
  /** The JSON body of a refused stream (status other than 200). */
  readonly body: any;
  /** Every event received so far, in order. */
  readonly events: SseEvent[];
  /** Every comment line received so far (`: heartbeat`, without the colon). */
  readonly comments: string[];
  /** Resolves once `count` events arrived (rejects after `timeoutMs`, naming what did arrive). */
  waitForEvents(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  /** Resolves when the server ended the response. */
  readonly ended: Promise<void>;
  /** Resolves with the last event once the server ended the response (rejects after `timeoutMs`, naming what arrived). */
  waitForEnd(timeoutMs?: number): Promise<SseEvent | undefined>;
  /** Closes the connection from the client's side. */
  close(): void;
}

/**
 * Opens `url` with fetch and parses the event stream as the WHATWG spec does (fields `id`,
 * `event`, `data`, comments; an event dispatched at each blank line).
 */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  if (response.status !== 200) {
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
      events,
      comments,
      waitForEvents: () => Promise.reject(new Error(`stream refused: ${response.status} ${text}`)),
      ended: Promise.resolve(),
      waitForEnd: () => Promise.reject(new Error(`stream refused: ${response.status} ${text}`)),
      close: () => undefined,
    };
  }
  const ended = (async () => {
    const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let field: { id?: string; event?: string; data: string[] } = { data: [] };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (field.data.length > 0) {
              const data = field.data.join('\n');
              let json: unknown;
              try {
                json = JSON.parse(data);
              } catch {
                json = undefined;
              }
              events.push({ id: field.id, event: field.event ?? 'message', data, json });
              for (const waiter of waiters) waiter();
            }
            field = { data: [] };
          } else if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else {
            const colon = line.indexOf(':');
            const name = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (name === 'data') field.data.push(text);
            else if (name === 'id') field.id = text;
            else if (name === 'event') field.event = text;
          }
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: 200,
    headers: response.headers,
    body: undefined,
    events,
    comments,
    waitForEvents(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(events.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${count} events expected, got ${JSON.stringify(events.map((e) => e.event))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    ended,
    waitForEnd(timeoutMs = 5000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the stream did not end; got ${JSON.stringify(events.map((e) => e.event))}`)),
          timeoutMs,
        );
      });
      return Promise.race([ended.then(() => events.at(-1)), late]).finally(() => clearTimeout(timer));
    },
    close: () => abort.abort(),
  };
}
