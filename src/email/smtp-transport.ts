import type { Transporter, TransportConfig } from 'nodemailer';
import type { EmailTransport, SmtpEmailConfig } from './email-transport.js';

/**
 * Strapi's email plugin config for `@strapi/provider-email-nodemailer` (an `SmtpEmailConfig`
 * without its `kind`): `providerOptions` go to nodemailer's `createTransport` as they are (`host`,
 * `port`, `secure`, `auth: { user, pass }`, `ignoreTLS`, `pool`…), `settings` fill in missing
 * `from` / `replyTo`.
 */
export type SmtpTransportOptions = Omit<SmtpEmailConfig, 'kind'>;

/**
 * Sends through nodemailer, mirroring Strapi's nodemailer provider: `from || defaultFrom`,
 * `replyTo || defaultReplyTo`. nodemailer is imported on the first `send`, so a server that never
 * sends mail never loads it; a failed import is retried on the next `send`.
 */
export function createSmtpTransport(options: SmtpTransportOptions): EmailTransport {
  let transporter: Promise<Transporter> | undefined;
  const load = async (): Promise<Transporter> => {
    const nodemailer = await import('nodemailer');
    return nodemailer.createTransport({ ...options.providerOptions } as TransportConfig);
  };
  return {
    async send(message) {
      transporter ??= load().catch((error: unknown) => {
        transporter = undefined;
        throw error;
      });
      const mailer = await transporter;
      await mailer.sendMail({
        from: message.from || options.settings.defaultFrom,
        replyTo: message.replyTo || options.settings.defaultReplyTo,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
  };
}
