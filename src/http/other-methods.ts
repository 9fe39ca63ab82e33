import FindMyWay from 'find-my-way';

/**
 * The methods a path is served with, for a request whose method it does not serve: the
 * `Allow` list of a 405, or undefined for a path no route has (a 404). The matcher is built on
 * the first call, not at start: only the route's own methods are registered with Fastify (six
 * methods per path made route registration the largest part of start-up), so a wrong method
 * reaches the not-found handler, which asks here.
 */
export function otherMethodsOf(
  byPath: ReadonlyMap<string, { readonly allow: string }>,
): (url: string) => string | undefined {
  let router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1> | null = null;
  return (url) => {
    if (!router) {
      // The same path syntax and trailing-slash rule as Fastify's own router.
      router = FindMyWay({ ignoreTrailingSlash: true });
      for (const [path, { allow }] of byPath) router.on('GET', path, () => undefined, { allow });
    }
    const query = url.indexOf('?');
    const found = router.find('GET', query === -1 ? url : url.slice(0, query));
    const allow = (found?.store as { allow?: unknown } | undefined)?.allow;
    return typeof allow === 'string' ? allow : undefined;
  };
}
