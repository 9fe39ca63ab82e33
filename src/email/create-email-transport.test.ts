import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createEmailTransport } from './create-email-transport.js';
import { parseEmailConfig, type BuiltinEmailConfig, type EmailConfig } from './email-transport.js';

function builtin(config: EmailConfig): BuiltinEmailConfig {
  if (config.kind === 'provider') throw new Error('expected a transport Cairn carries');
  return config;
}

describe('createEmailTransport', () => {
  it('logs through the given logger when no provider is configured', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    await createEmailTransport({ kind: 'log' }, logger).send({ to: 'a@x.io', subject: 'S', text: 'T' });
    expect(lines).toHaveLength(1);
  });

  it('returns an SMTP transport that writes no log line for the nodemailer provider', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const transport = createEmailTransport(builtin(parseEmailConfig({ provider: 'nodemailer' })), logger);
    expect(typeof transport.send).toBe('function');
    expect(lines).toHaveLength(0);
  });
});
