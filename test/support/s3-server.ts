import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/*
 * An S3-compatible server for the upload provider tests: @20minutes/s3rver (the maintained fork
 * of s3rver, which runs on Node 20) in this process, on loopback, storing its buckets in a temp
 * folder. Its credentials are s3rver's fixed pair; it checks request signatures (a presigned URL
 * with a wrong signature is refused) but not ACLs.
 */

const require = createRequire(import.meta.url);

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Readonly<Record<string, unknown>>) => S3rverInstance;

/** s3rver's fixed credentials (`S3RVER` / `S3RVER`). */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** A running S3 server: its endpoint, and the object keys of a bucket as ListObjectsV2 answers them. */
export interface S3Server {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  keys(bucket: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Starts the server with these (empty) buckets. */
export async function startS3Server(buckets: readonly string[]): Promise<S3Server> {
  const S3rver = require('@20minutes/s3rver') as S3rverClass;
  const directory = mkdtempSync(join(tmpdir(), 'cairn-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    async keys(bucket) {
      const response = await fetch(`${endpoint}/${bucket}?list-type=2`);
      if (response.status !== 200) throw new Error(`listing ${bucket}: ${response.status} ${await response.text()}`);
      return [...(await response.text()).matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1] ?? '').sort();
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The repository's copy of a package, as an absolute path a test project's shim can require. */
export function repoPackage(name: string): string {
  return resolve(import.meta.dirname, '../../node_modules', name);
}

/**
 * Files (for startTestServer's `files`) that make `name` resolvable from a test project's folder:
 * `node_modules/<name>` holding a package that re-exports the repository's installed copy.
 */
export function linkedPackage(name: string): Record<string, string> {
  return {
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, version: '0.0.0-test', main: 'index.js' }),
    [`node_modules/${name}/index.js`]: `module.exports = require(${JSON.stringify(repoPackage(name))});\n`,
  };
}
