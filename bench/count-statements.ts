import { createApp } from '../src/app.js';
import { loadProject } from '../src/project/load-project.js';
import type { RequestKind } from './request-kinds.js';

const SAMPLES = 5;

/**
 * SQL statements per request of each kind, averaged over a few requests: the project is opened
 * in-process on the same database with a statement listener, listening on a free port, and each
 * request is sent over HTTP. Writes made here land in the benchmark's database like any other.
 */
export async function countStatements(
  projectDir: string,
  env: Readonly<Record<string, string>>,
  kinds: readonly RequestKind[],
): Promise<Map<string, number>> {
  const project = await loadProject(projectDir, { ...process.env, ...env });
  let statements = 0;
  const app = await createApp(project, { onQuery: () => statements++ });
  const counts = new Map<string, number>();
  try {
    const baseUrl = await app.server.listen({ host: '127.0.0.1', port: 0 });
    for (const kind of kinds) {
      let total = 0;
      for (let n = 0; n < SAMPLES; n++) {
        const request = kind.request(1_000_000 + n);
        statements = 0;
        const response = await fetch(`${baseUrl}${request.path}`, {
          method: request.method,
          ...(request.body === undefined
            ? {}
            : { body: request.body, headers: { 'content-type': 'application/json' } }),
        });
        const text = await response.text();
        if (response.status >= 300)
          throw new Error(
            `${kind.name}: ${request.method} ${request.path} answered ${response.status} ${text.slice(0, 300)}`,
          );
        total += statements;
      }
      counts.set(kind.name, total / SAMPLES);
    }
  } finally {
    await app.close();
  }
  return counts;
}
