import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A server the benchmark started as a child process. */
export interface ServerProcess {
  readonly baseUrl: string;
  readonly pid: number;
  /** Spawn → first 200 on the readiness path, in seconds. */
  readonly startSeconds: number;
  /** Resident set size now and at its highest so far, in MB (null where /proc is not available). */
  memory(): { rssMb: number | null; peakMb: number | null };
  stop(): Promise<void>;
}

/** How to start a server and how to know it is ready. */
export interface SpawnSpec {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly port: number;
  /** A GET path that answers 200 once the server serves requests. */
  readonly readyPath: string;
  /** How long to wait for it (30 s by default). */
  readonly readyTimeoutMs?: number;
}

const READY_TIMEOUT_MS = 30_000;

/**
 * Spawns `node <args>` and polls `readyPath` until it answers 200. The child's stdout (request
 * logs) goes to /dev/null so logging costs what it costs in production without the benchmark
 * having to read it; stderr is kept to explain a failed start.
 */
export async function spawnServer(spec: SpawnSpec): Promise<ServerProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, [...spec.args], {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env, HOST: '127.0.0.1', PORT: String(spec.port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const baseUrl = `http://127.0.0.1:${spec.port}`;
  await waitUntilReady(child, `${baseUrl}${spec.readyPath}`, () => stderr, spec.readyTimeoutMs ?? READY_TIMEOUT_MS);
  const startSeconds = (performance.now() - started) / 1000;
  const pid = child.pid as number;
  return {
    baseUrl,
    pid,
    startSeconds,
    memory: () => readMemory(pid),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitUntilReady(
  child: ChildProcess,
  url: string,
  stderr: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited with code ${child.exitCode} before answering:\n${stderr()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer 200 on ${url} within ${timeoutMs / 1000} s:\n${stderr()}`);
}

function readMemory(pid: number): { rssMb: number | null; peakMb: number | null } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
      return match ? Math.round(Number(match[1]) / 1024) : null;
    };
    return { rssMb: kb('VmRSS'), peakMb: kb('VmHWM') };
  } catch {
    return { rssMb: null, peakMb: null };
  }
}

/** A port on 127.0.0.1 free right now (bound, then released) for a server to listen on. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
