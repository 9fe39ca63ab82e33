import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogTransport, EMAIL_NOT_SENT_MESSAGE } from './log-transport.js';

describe('createLogTransport', () => {
  it('writes one info line with the recipient, subject and text, and sends nothing', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const transport = createLogTransport(logger);

    await transport.send({
      to: 'ada@example.com',
      from: 'no-reply@example.com',
      subject: 'Reset password',
      text: 'Use code abc',
      html: '<p>abc</p>',
    });

    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 30,
      msg: EMAIL_NOT_SENT_MESSAGE,
      email: { to: 'ada@example.com', subject: 'Reset password', text: 'Use code abc' },
    });
    expect(line.email).toEqual({ to: 'ada@example.com', subject: 'Reset password', text: 'Use code abc' });
    expect(EMAIL_NOT_SENT_MESSAGE).toBe('email not sent (no email provider configured); it would have been:');
  });
});
