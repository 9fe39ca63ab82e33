/** The query parameters whose values never reach a log: a credential sent in the URL. */
const SECRET_PARAMETERS = new Set(['access_token']);

/**
 * `url` as a log line shows it: the value of each credential parameter (`access_token`, however
 * its name is percent-encoded, since the query parser decodes names) replaced by `[REDACTED]`.
 *
 *   /api/articles/stream?access_token=abc&lastEventId=1 → /api/articles/stream?access_token=[REDACTED]&lastEventId=1
 *   /api/articles?access%5Ftoken=abc                     → /api/articles?access%5Ftoken=[REDACTED]
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  // Every request's log line passes here: a query naming no credential, even percent-encoded, as is.
  if (mark < 0 || (!url.includes('%', mark) && !url.includes('access_token', mark))) return url;
  const parts = url.slice(mark + 1).split('&');
  let redacted = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const equals = part.indexOf('=');
    const name = equals < 0 ? part : part.slice(0, equals);
    if (!SECRET_PARAMETERS.has(decodedName(name))) continue;
    parts[i] = `${name}=[REDACTED]`;
    redacted = true;
  }
  return redacted ? `${url.slice(0, mark)}?${parts.join('&')}` : url;
}

/** A parameter's name as the query parser reads it (brackets after it ignored), or '' when it cannot be decoded. */
function decodedName(name: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return '';
  }
  const bracket = decoded.indexOf('[');
  return bracket < 0 ? decoded : decoded.slice(0, bracket);
}
