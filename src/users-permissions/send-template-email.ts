import type { AuthContext } from './auth-context.js';
import { renderTemplate, type EmailTemplate } from './plugin-settings.js';

/** Sends one of the plugin's email templates to `to`, rendered with `values` (as HTML and as text). */
export async function sendTemplateEmail(
  ctx: AuthContext,
  template: EmailTemplate,
  to: string,
  values: Readonly<Record<string, unknown>>,
): Promise<void> {
  const message = renderTemplate(template.message, values);
  await ctx.mail.send({
    to,
    ...(template.from.email ? { from: `${template.from.name} <${template.from.email}>` } : {}),
    ...(template.response_email ? { replyTo: template.response_email } : {}),
    subject: renderTemplate(template.object, values),
    text: message,
    html: message,
  });
}
