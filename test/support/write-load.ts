/*
 * A concurrent write workload on the blog example's articles: many clients creating, updating,
 * publishing and deleting at once, racing on the same documents on purpose, and a log of what
 * each request was acknowledged with. Used by the concurrent-write test, the crash test and the
 * creates-per-second benchmark; the checks of the log are in write-load-checks.ts.
 */

/** What a request answered (the transport is the caller's: inject or real HTTP). */
export interface LoadResponse {
  readonly status: number;
  /** The parsed body; undefined for an empty one (204). */
  readonly json: LoadBody | undefined;
}

/** A content-API body, as far as the workload and its tests read it. */
export interface LoadBody {
  readonly data?: LoadDocument | null;
  readonly error?: { readonly status: number; readonly name: string; readonly message: string };
}

/** A document in a body: its id, and the relations the tests read back. */
export interface LoadDocument {
  readonly documentId: string;
  readonly tags?: readonly { readonly documentId: string }[];
  readonly author?: { readonly documentId: string } | null;
}

/** Sends one request; rejects only when no answer came at all (a killed server). */
export type LoadSend = (method: string, path: string, body?: unknown) => Promise<LoadResponse>;

/** A write the workload sent and what it was answered. `marker` is the `summary` it wrote. */
export interface LoggedWrite {
  readonly op: 'create' | 'update' | 'delete';
  readonly documentId: string;
  readonly locale: 'en' | 'fr';
  /** The write also published the version (no `status=draft`). */
  readonly publishes: boolean;
  readonly marker: string;
  readonly sentAt: number;
  /** When the answer came (undefined: none came). */
  readonly answeredAt?: number;
  readonly status?: number;
  /** The error message answered, or why no answer came. */
  readonly error?: string;
}

/** What the documents refer to: ids of authors and tags (documentIds) and of files (row ids). */
export interface LoadFixtures {
  readonly authors: readonly string[];
  readonly tags: readonly string[];
  readonly files: readonly number[];
}

export interface LoadOptions {
  readonly clients: number;
  /** Operations per client (each may send several requests at once). */
  readonly operations: number;
  readonly seed: number;
  /** Share of bodies carrying a `password` attribute (hashed by the server). */
  readonly passwordShare?: number;
  /** Stops every client before its next operation once true (the crash test's deadline). */
  readonly stop?: () => boolean;
  /** Told of every write logged (the crash test kills the server after a number of them). */
  readonly onLogged?: (write: LoggedWrite, logged: number) => void;
}

/** A small deterministic PRNG (mulberry32): the same seed sends the same workload shape. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs the workload and returns every write sent, with its answer. Documents are picked among
 * the newest few so that updates, publishes and deletes of one document race; every body is
 * valid, so any answer but 2xx (and 404 for a document deleted meanwhile) is a server fault.
 */
export async function runWriteLoad(
  send: LoadSend,
  fixtures: LoadFixtures,
  options: LoadOptions,
): Promise<LoggedWrite[]> {
  const log: LoggedWrite[] = [];
  const documents: string[] = [];
  let counter = 0;
  const nextMarker = (client: number) => `m${client}-${(counter += 1)}`;

  const logged = (write: LoggedWrite) => {
    log.push(write);
    options.onLogged?.(write, log.length);
  };
  const write = async (
    entry: Omit<LoggedWrite, 'sentAt'>,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<LoadResponse | null> => {
    const sentAt = performance.now();
    try {
      const response = await send(method, path, body);
      const documentId = entry.documentId || String(response.json?.data?.documentId ?? '');
      const error = response.status >= 300 ? String(response.json?.error?.message ?? '') : undefined;
      logged({
        ...entry,
        documentId,
        sentAt,
        answeredAt: performance.now(),
        status: response.status,
        ...(error ? { error } : {}),
      });
      return response;
    } catch (error) {
      logged({ ...entry, sentAt, error: (error as Error).message });
      return null;
    }
  };

  const client = async (index: number) => {
    const random = seededRandom(options.seed * 1000 + index);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const hot = () => pick(documents.slice(-6));
    const body = (marker: string, full: boolean) =>
      articleBody(fixtures, marker, full, random, options.passwordShare ?? 0.3);

    for (let n = 0; n < options.operations && !options.stop?.(); n += 1) {
      const roll = random();
      if (documents.length < 3 || roll < 0.25) {
        const marker = nextMarker(index);
        const draft = random() < 0.2;
        const response = await write(
          { op: 'create', documentId: '', locale: 'en', publishes: !draft, marker },
          'POST',
          `/api/articles${draft ? '?status=draft' : ''}`,
          { data: body(marker, true) },
        );
        if (response?.status === 201) documents.push(String(response.json?.data?.documentId));
        continue;
      }
      const documentId = hot();
      if (roll < 0.6) {
        const locale = random() < 0.25 ? 'fr' : 'en';
        const draft = random() < 0.3;
        const marker = nextMarker(index);
        await write(
          { op: 'update', documentId, locale, publishes: !draft, marker },
          'PUT',
          `/api/articles/${documentId}?locale=${locale}${draft ? '&status=draft' : ''}`,
          { data: body(marker, random() < 0.5) },
        );
      } else if (roll < 0.72) {
        // Racing publishes of one document.
        await Promise.all(
          [0, 1, 2].map(() => {
            const marker = nextMarker(index);
            return write(
              { op: 'update', documentId, locale: 'en', publishes: true, marker },
              'PUT',
              `/api/articles/${documentId}`,
              { data: { summary: marker, author: pick(fixtures.authors) } },
            );
          }),
        );
      } else if (roll < 0.84) {
        // An update and a delete of one document at the same time.
        const marker = nextMarker(index);
        await Promise.all([
          write(
            { op: 'update', documentId, locale: 'en', publishes: true, marker },
            'PUT',
            `/api/articles/${documentId}`,
            { data: body(marker, true) },
          ),
          write(
            { op: 'delete', documentId, locale: 'en', publishes: false, marker: '' },
            'DELETE',
            `/api/articles/${documentId}?locale=*`,
          ),
        ]);
      } else if (roll < 0.92) {
        await write(
          { op: 'delete', documentId, locale: 'en', publishes: false, marker: '' },
          'DELETE',
          `/api/articles/${documentId}?locale=*`,
        );
      } else {
        await send('GET', `/api/articles/${documentId}?populate=*`).catch(() => null);
      }
    }
  };

  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  return log;
}

/**
 * An article body: `summary` is the write's marker; a full body also sets relations (author,
 * tags as a list or connect/disconnect), media, the seo component with keywords, a dynamic zone of
 * the three kinds and, for a share of bodies, a password.
 */
function articleBody(
  fixtures: LoadFixtures,
  marker: string,
  full: boolean,
  random: () => number,
  passwordShare: number,
): Record<string, unknown> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const data: Record<string, unknown> = { title: `t ${marker}`, summary: marker, views: Math.floor(random() * 1000) };
  if (random() < passwordShare) data.secretCode = `secret-${marker}`;
  if (!full) return data;
  const order = [...fixtures.tags].sort(() => random() - 0.5);
  const [first, second] = [order[0] as string, order[1] as string];
  return {
    ...data,
    author: pick(fixtures.authors),
    tags: random() < 0.5 ? [first, second] : { connect: [first], disconnect: [second] },
    cover: pick(fixtures.files),
    gallery: [pick(fixtures.files), pick(fixtures.files)].filter((id, i, all) => all.indexOf(id) === i),
    seo: { metaTitle: `seo ${marker}`, keywords: [{ word: `k1 ${marker}` }, { word: `k2 ${marker}` }] },
    blocks: [
      { __component: 'shared.quote', title: `q ${marker}`, author: pick(fixtures.authors) },
      { __component: 'shared.rich-text', body: `rich ${marker}` },
      { __component: 'shared.media-block', file: pick(fixtures.files) },
    ],
  };
}
