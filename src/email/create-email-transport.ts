import type { Logger } from 'pino';
import type { EmailConfig, EmailTransport } from './email-transport.js';
import { createLogTransport } from './log-transport.js';
import { createSmtpTransport } from './smtp-transport.js';

/**
 * The transport for a parsed `email.config` (see `parseEmailConfig`): `{ kind: 'log' }` → the log
 * transport writing through `logger`; `{ kind: 'smtp', … }` → nodemailer, loaded on first send.
 */
export function createEmailTransport(config: EmailConfig, logger: Logger): EmailTransport {
  switch (config.kind) {
    case 'log':
      return createLogTransport(logger);
    case 'smtp':
      return createSmtpTransport(config);
  }
}
