import { WEBHOOK_EVENTS } from '../../config/webhooks-config.js';
import { fieldValidationError, ValidationError, type FieldError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import { httpUrl, isThisMachine } from '../../webhooks/webhook-url.js';

/** A webhook as the admin panel sends it, checked: `POST /admin/webhooks`, `PUT /admin/webhooks/:id`. */
export interface WebhookInput {
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly events: readonly string[];
  /** Only on an update (the list's Enabled switch); absent: the webhook stays as it is. */
  readonly isEnabled?: boolean;
}

/** The panel's own rule for a webhook's name (Strapi's server takes any string; Cairn checks it too). */
const NAME = /^[A-Za-z][_0-9A-Za-z ]*$/;
/** `strapi_webhooks.name` is a varchar(255). */
const MAX_NAME = 255;
/** A URL longer than this is no receiver's. */
const MAX_URL = 2_048;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What fetch refuses in a header value. */
const HEADER_VALUE_FORBIDDEN = /[\r\n\0]/;

/**
 * Checks a webhook body as Strapi's admin validator does (yup, strict, `noUnknown`): `name`, `url`
 * (`url must be a valid URL`), `headers` (an object) and `events` (an array of strings) are
 * required, an update may add `isEnabled` (a boolean); every problem is listed in one 400
 * `ValidationError` with `details.errors`. Then, as Strapi's webhook store, an event outside the
 * known list is `Webhook event <event> is not supported`.
 *
 * Cairn is stricter where Strapi stores what cannot be delivered: the name follows the panel's
 * rule (a letter, then letters, digits, spaces and underscores), the URL is http(s) and parses,
 * and header values are non-empty strings under valid header names. In production, as Strapi
 * 5.54, a URL whose host is this machine (localhost, a loopback address, an address of one of its
 * interfaces, or a name resolving to one) is refused: `Url is not supported because it isn't
 * reachable over the public internet`.
 *
 * `{ name: 'Deploy', url: 'https://ci.example/hook', headers: {}, events: ['entry.publish'] }` →
 * the same; `{ name: 'x' }` → 400 `3 errors occurred` (url, headers, events required).
 */
export async function parseWebhookInput(
  body: unknown,
  options: { readonly update: boolean; readonly production: boolean },
): Promise<WebhookInput> {
  const data = isRecord(body) ? body : {};
  const errors: FieldError[] = [];
  const fail = (path: readonly string[], message: string, value: unknown) =>
    errors.push({ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) });
  const required = (key: string) => {
    const value = data[key];
    if (value === undefined || value === null || value === '') {
      fail([key], `${key} is a required field`, value);
      return undefined;
    }
    return value;
  };

  const name = required('name');
  if (name !== undefined) {
    if (typeof name !== 'string') fail(['name'], 'name must be a `string` type', name);
    else if (name.length > MAX_NAME) fail(['name'], `name must be at most ${MAX_NAME} characters`, name);
    else if (!NAME.test(name))
      fail(['name'], 'name must start with a letter and only contain letters, numbers, spaces and underscores', name);
  }

  const url = required('url');
  if (url !== undefined) {
    if (typeof url !== 'string') fail(['url'], 'url must be a `string` type', url);
    else if (url.length > MAX_URL || !httpUrl(url)) fail(['url'], 'url must be a valid URL', url);
  }

  const headers = required('headers');
  if (headers !== undefined) {
    if (!isRecord(headers)) fail(['headers'], 'headers must be a `object` type', headers);
    else
      for (const [key, value] of Object.entries(headers)) {
        if (!HEADER_NAME.test(key)) fail(['headers', key], `headers: "${key}" is not a valid header name`, key);
        else if (typeof value !== 'string' || value === '')
          fail(['headers', key], `headers.${key} must be a non-empty \`string\``, value);
        else if (HEADER_VALUE_FORBIDDEN.test(value))
          fail(['headers', key], `headers.${key} must not hold line breaks`, value);
      }
  }

  const events = required('events');
  if (events !== undefined) {
    if (!Array.isArray(events)) fail(['events'], 'events must be a `array` type', events);
    else
      events.forEach((event: unknown, index) => {
        if (typeof event !== 'string')
          fail(['events', String(index)], `events[${index}] must be a \`string\` type`, event);
      });
  }

  if (options.update && data.isEnabled !== undefined && typeof data.isEnabled !== 'boolean')
    fail(['isEnabled'], 'isEnabled must be a `boolean` type', data.isEnabled);

  const known = ['name', 'url', 'headers', 'events', ...(options.update ? ['isEnabled'] : [])];
  const unknown = Object.keys(data).filter((key) => !known.includes(key));
  if (unknown.length > 0)
    errors.push({
      path: [],
      message: `this field has unspecified keys: ${unknown.join(', ')}`,
      name: 'ValidationError',
    });
  if (errors.length > 0) throw fieldValidationError(errors);

  const list = events as string[];
  const unsupported = list.find((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
  if (unsupported !== undefined) throw new ValidationError(`Webhook event ${unsupported} is not supported`);
  if (options.production && (await isThisMachine(new URL(url as string).hostname)))
    throw fieldValidationError([
      {
        path: ['url'],
        message: "Url is not supported because it isn't reachable over the public internet",
        name: 'ValidationError',
        value: url,
      },
    ]);
  return {
    name: name as string,
    url: url as string,
    headers: headers as Record<string, string>,
    events: list,
    ...(typeof data.isEnabled === 'boolean' ? { isEnabled: data.isEnabled } : {}),
  };
}
