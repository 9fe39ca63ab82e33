import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { closedPort } from './webhook-receiver.js';

/** The built command line (`npm test` builds first). */
export const BIN = resolve(import.meta.dirname, '../../bin/cairn.js');

/** Runs `cairn <args>` with logging off; resolves with its exit code and output. */
export function cairn(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cairnWithEnv({}, ...args);
}

/** How long a command line run may take in a test. */
const COMMAND_DEADLINE_MS = 50_000;

/** {@link cairn} with `env` added to the environment (a database's settings, say). */
export function cairnWithEnv(
  env: Readonly<Record<string, string>>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      // A command that hangs is killed before the test's own deadline, so that the failure shows
      // what it printed instead of a bare timeout (and nothing of it runs on into the next test).
      { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, timeout: COMMAND_DEADLINE_MS, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const killed = error?.killed === true;
        done({
          code: error ? (killed ? -1 : Number(error.code ?? 1)) : 0,
          stdout,
          stderr: killed ? `${stderr}\n[killed after ${COMMAND_DEADLINE_MS} ms: cairn ${args.join(' ')}]` : stderr,
        });
      },
    );
  });
}

/** A `cairn start` child process: its base URL, everything it printed so far, and `stop()` (SIGTERM unless told; resolves with the exit code once it exited). */
export interface RunningCairn {
  readonly base: string;
  /** The child's process id (its resident memory is read from /proc, see process-memory.ts). */
  readonly pid: number;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns `cairn start --dir <dir>` (or `cairn <argv>`; `launcher.bin`, this checkout's by default, run
 * by `launcher.node`, this Node by default) on a free port
 * with `env` added, and resolves once `/_health` answers 204 from that child, or rejects with what
 * it printed if it exits or is not up within 45 s (a first start on MySQL creates some sixty
 * tables, slow on a busy machine). The port is free when chosen,
 * but another test's server may take it before the child listens: a 204 then comes from that
 * server, so the answer counts only when the child holds the listening socket, and the child is
 * started again on another port when its own port was taken.
 */
export async function startCairn(
  dir: string,
  env: Readonly<Record<string, string>> = {},
  argv: readonly string[] = ['start', '--dir', dir],
  launcher: { readonly bin?: string; readonly node?: string } = {},
): Promise<RunningCairn> {
  for (let attempt = 1; ; attempt++) {
    const started = await startOnFreePort(argv, env, launcher.bin ?? BIN, launcher.node ?? process.execPath);
    if (started !== 'port taken') return started;
    if (attempt === 3) throw new Error('cairn start: three free ports were taken by other servers before it listened');
  }
}

async function startOnFreePort(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
  bin: string,
  node: string,
): Promise<RunningCairn | 'port taken'> {
  const port = await closedPort();
  const child = spawn(node, [bin, ...argv], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  let running = true;
  void exited.then(() => (running = false));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 45_000;
  while (running && Date.now() < deadline) {
    const status = await fetch(`${base}/_health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status !== 0 && child.pid !== undefined && !listensOn(child.pid, port)) {
      // Someone else's server answers on this port: this child cannot listen there.
      child.kill('SIGKILL');
      await exited;
      return 'port taken';
    }
    if (status === 204) {
      const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
        if (running) child.kill(signal);
        return exited;
      };
      return { base, pid: child.pid as number, output: () => output, stop };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  await exited;
  throw new Error(`cairn start did not come up:\n${output}`);
}

/**
 * Whether process `pid` holds the socket listening on 127.0.0.1:`port`: the socket's inode in
 * /proc/net/tcp among the process's open files (Linux; taken as true elsewhere).
 */
function listensOn(pid: number, port: number): boolean {
  if (process.platform !== 'linux') return true;
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const socket = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1] === local && fields[3] === '0A');
  if (!socket) return false;
  const target = `socket:[${socket[9]}]`;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === target;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
