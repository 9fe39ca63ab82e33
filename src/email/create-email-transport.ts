import type { Logger } from 'pino';
import type { BuiltinEmailConfig, EmailTransport } from './email-transport.js';
import { createLogTransport } from './log-transport.js';
import { createSmtpTransport } from './smtp-transport.js';

/**
 * The transport for a parsed `email.config` (see `parseEmailConfig`): `{ kind: 'log' }` → the log
 * transport writing through `logger`; `{ kind: 'smtp', … }` → nodemailer, loaded on first send.
 * Provider packages are loaded by load-email-transport.ts.
 */
export function createEmailTransport(config: BuiltinEmailConfig, logger: Logger): EmailTransport {
  switch (config.kind) {
    case 'log':
      return createLogTransport(logger);
    case 'smtp':
      return createSmtpTransport(config);
  }
}
