import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cairn, startCairn } from './support/cli.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * The server's log as a person and a collector see it: readable lines in a terminal, one JSON
 * object a line when piped or in production, `--log-format` / CAIRN_LOG_FORMAT to choose, and
 * the start-up summary (admin build, plugins, project code) in both.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-logs-'));
  dirs.push(dir);
  cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
  return dir;
}
const PRETTY_LINE = /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN): \S/;
// eslint-disable-next-line no-control-regex
const COLOR = /\u001b\[\d+m/;
const lines = (output: string) => output.split(/\r?\n/).filter((line) => line.trim() !== '');

/**
 * Runs `cairn start` inside a pseudo-terminal (util-linux `script`), as in a person's shell, until
 * it says it is serving; returns what the terminal showed.
 */
async function startInTerminal(dir: string, env: Record<string, string> = {}): Promise<string> {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} start --dir ${JSON.stringify(dir)}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', NODE_ENV: '', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const exited = new Promise((done) => child.on('exit', done));
  for (let waited = 0; waited < 45_000 && !/Cairn is serving/.test(output); waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  await exited;
  return output;
}

describe('cairn start logs', () => {
  it('writes one JSON object a line when its output is piped, with the start-up summary', async () => {
    const dir = project();
    const server = await startCairn(dir);
    await fetch(`${server.base}/api/articles`);
    await server.stop();
    const logged = lines(server.output()).map(
      (line) => JSON.parse(line) as { level: number; time: number; msg: string },
    );
    const messages = logged.map((entry) => entry.msg);
    expect(messages).toContain(
      `admin panel: no build found (looked for ${join(dir, 'build', 'index.html')} and ${join(dir, 'dist', 'build', 'index.html')}); /admin answers a page saying how to build it (npx strapi build in the project)`,
    );
    expect(messages).toContain(
      'plugins: users-permissions, upload (local), i18n (en, fr, default en), email (log only)',
    );
    expect(messages).toContain("project code: none to run beyond Strapi's generated files");
    expect(messages.some((msg) => /^GET \/api\/articles 200 /.test(msg))).toBe(true);
  });

  it('writes readable lines with --log-format pretty (no colours when not a terminal)', async () => {
    const dir = project();
    const server = await startCairn(dir, {}, ['start', '--dir', dir, '--log-format', 'pretty']);
    await server.stop();
    const shown = lines(server.output());
    expect(shown.length).toBeGreaterThan(3);
    for (const line of shown) expect(line).toMatch(PRETTY_LINE);
    expect(server.output()).not.toMatch(COLOR);
    expect(server.output()).toContain("INFO: project code: none to run beyond Strapi's generated files");
  });

  it('writes readable, coloured lines in a terminal, and JSON there in production or when asked', async () => {
    const dir = project();
    const terminal = lines(await startInTerminal(dir));
    expect(terminal.some((line) => /Cairn is serving/.test(line))).toBe(true);
    // eslint-disable-next-line no-control-regex
    for (const line of terminal) expect(line.replace(/\u001b\[\d+m/g, '')).toMatch(PRETTY_LINE);
    expect(terminal.join('\n')).toMatch(COLOR);
    const cases: Record<string, string>[] = [{ CAIRN_LOG_FORMAT: 'json' }, { NODE_ENV: 'production' }];
    for (const env of cases) {
      const shown = lines(await startInTerminal(dir, env));
      expect(
        shown.some((line) => /Cairn is serving/.test(line)),
        JSON.stringify(env),
      ).toBe(true);
      for (const line of shown) expect(() => JSON.parse(line), `${JSON.stringify(env)}: ${line}`).not.toThrow();
    }
  });

  it('refuses an unknown log format, naming the switch', async () => {
    const dir = project();
    const flag = await cairn('start', '--dir', dir, '--log-format', 'xml');
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--log-format must be "pretty" or "json", got "xml"');
    expect(flag.stderr).not.toMatch(/\n\s+at /);
  });
});
