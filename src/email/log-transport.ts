import type { Logger } from 'pino';
import type { EmailTransport } from './email-transport.js';

/** The message of the line the log transport writes for every email. */
export const EMAIL_NOT_SENT_MESSAGE = 'email not sent (no email provider configured); it would have been:';

/**
 * The default transport when `config/plugins` names no email provider: nothing leaves the
 * machine; each email becomes one `info` line `{ email: { to, subject, text } }` with
 * {@link EMAIL_NOT_SENT_MESSAGE}. The text holds the reset or confirmation link, so this is for
 * development: a production project configures the `nodemailer` provider.
 */
export function createLogTransport(logger: Logger): EmailTransport {
  return {
    send(message) {
      logger.info({ email: { to: message.to, subject: message.subject, text: message.text } }, EMAIL_NOT_SENT_MESSAGE);
      return Promise.resolve();
    },
  };
}
