import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** Whether `text` is an absolute http(s) URL with a host. */
export function httpUrl(text: string): boolean {
  try {
    const parsed = new URL(text);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Whether `hostname` names this machine: `localhost` (and `*.localhost`), a loopback or
 * unspecified address, an address of one of its interfaces, or a name resolving to one of those.
 * A name that does not resolve is not known to be local (its deliveries fail and are retried).
 */
export async function isThisMachine(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((found) => found.address);
    } catch {
      return false;
    }
  }
  const own = new Set(
    Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address.toLowerCase())),
  );
  return addresses.some((address) => {
    const text = address.toLowerCase().replace(/^::ffff:/, '');
    return text.startsWith('127.') || text === '::1' || text === '0.0.0.0' || text === '::' || own.has(text);
  });
}
