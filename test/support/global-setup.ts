import type { TestProject } from 'vitest/node';
import { ALL_DATABASES, probeDatabases, type DatabaseKind } from './databases.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databases: DatabaseKind[];
  }
}

/**
 * Decides which databases the scenario tables run on: SQLite always, PostgreSQL and MySQL when
 * they answer. With CAIRN_REQUIRE_DATABASES=1 (set by .ci/run) a missing one fails the run; on
 * a user's machine it is skipped with a one-line notice. CAIRN_TEST_DATABASES=sqlite,postgres
 * limits the run.
 */
export default async function setup(project: TestProject): Promise<void> {
  const wanted = (process.env.CAIRN_TEST_DATABASES?.split(',').map((s) => s.trim()) ?? [
    ...ALL_DATABASES,
  ]) as DatabaseKind[];
  const { available, missing } = await probeDatabases();
  if (missing.length > 0) {
    if (process.env.CAIRN_REQUIRE_DATABASES === '1') {
      throw new Error(`cairn tests: not answering: ${missing.join('; ')} (required by CAIRN_REQUIRE_DATABASES=1)`);
    }
    process.stderr.write(`cairn tests: skipping ${missing.join('; ')}\n`);
  }
  project.provide(
    'databases',
    available.filter((kind) => wanted.includes(kind)),
  );
}
