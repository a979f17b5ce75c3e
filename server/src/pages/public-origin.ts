import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** A host name, IPv4 or bracketed IPv6 address, and an optional port: nothing a URL or markup could trip on. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

/**
 * The origin absolute URLs on a page are written with (canonical, Open Graph, sitemap): PUBLIC_URL when it is set,
 * else the request's own. Behind a proxy (TRUST_PROXY) the request's is what the proxy saw, from the first value
 * of `X-Forwarded-Proto` and `X-Forwarded-Host`, as Express reads them for `req.protocol` and `req.host`; without
 * it those headers are ignored, so a client cannot name another site. `undefined` when the host is missing or
 * not a host: such a request gets a 400, never a page naming whatever it sent.
 *
 * One function for the Express routes and the response cache in front of them, since the origin is part of the
 * cached page.
 */
export function publicOrigin(
  req: IncomingMessage,
  { publicUrl, trustProxy }: { publicUrl: string | null; trustProxy: boolean },
): string | undefined {
  if (publicUrl !== null) return publicUrl;
  const forwardedProto = trustProxy ? firstValue(req.headers['x-forwarded-proto']) : undefined;
  const protocol = forwardedProto ?? ((req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http');
  const host = (trustProxy ? firstValue(req.headers['x-forwarded-host']) : undefined) ?? req.headers.host;
  if ((protocol !== 'http' && protocol !== 'https') || host === undefined || !HOST.test(host)) return undefined;
  // Through URL: the host lowercased and a default port dropped, so one site has one spelling (one cache entry).
  // It still refuses what the pattern lets by: a port over 65535, a malformed IPv6 address.
  const origin = `${protocol}://${host}`;
  return URL.canParse(origin) ? new URL(origin).origin : undefined;
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0]?.trim();
  return first === '' ? undefined : first;
}
