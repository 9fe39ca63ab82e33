import type { EmailMessage, EmailSettings, EmailTransport } from './email-transport.js';

/** What a Strapi email provider's `init(providerOptions, settings)` returns: `send` is all Cairn calls. */
export interface StrapiEmailProvider {
  send(options: Readonly<Record<string, unknown>>): unknown;
}

/**
 * Sends through a started Strapi email provider (`@strapi/provider-email-sendgrid`, Mailgun's…):
 * one `send({ to, from, replyTo, subject, text, html })` per email, as Strapi's email service
 * calls it, with `from`/`replyTo` filled from `settings.defaultFrom`/`defaultReplyTo` when the
 * message has none (the providers fall back to them too). Keys without a value are left out.
 * Resolves when the provider's `send` does, rejects with its error.
 */
export function createProviderEmailTransport(provider: StrapiEmailProvider, settings: EmailSettings): EmailTransport {
  return {
    async send(message: EmailMessage) {
      const options: Record<string, unknown> = {
        to: message.to,
        from: message.from || settings.defaultFrom,
        replyTo: message.replyTo || settings.defaultReplyTo,
        subject: message.subject,
        text: message.text,
        html: message.html,
      };
      for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];
      await provider.send(options);
    },
  };
}
