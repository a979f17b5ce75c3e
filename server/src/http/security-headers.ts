/** Only this origin, for everything a page loads (docs/operations.md, "Security headers"). */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // styled-components injects <style> elements at runtime, which only 'unsafe-inline' allows.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  // No upgrade-insecure-requests: the site is also served over plain HTTP (localhost, a LAN address).
].join(';');

/**
 * The security headers of every answer, as `[name, value]` pairs in the order they are sent: helmet 8's
 * defaults with the policy above. One constant rather than helmet's middleware, because two paths send
 * answers — the Express app and the response cache in front of it — and both must send exactly these: the
 * one writer puts them in every head (requestHead in answer.ts).
 */
export const SECURITY_HEADERS: readonly (readonly [name: string, value: string])[] = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  // Turns off the XSS auditor of old browsers, which could itself be abused; the CSP above does the job.
  ['X-XSS-Protection', '0'],
];

const SECURITY_HEADER_LIST: readonly string[] = SECURITY_HEADERS.flat();
/**
 * By CSP, then by resource policy, as a head lists them (`[name, value, …]`). Both are the code's constants
 * (image-answer.ts, cors.ts), never a request's: a few lists for the life of the process.
 */
const SECURITY_HEADER_LISTS = new Map<string | undefined, Map<string | undefined, readonly string[]>>();

/**
 * SECURITY_HEADERS with an answer's own CSP and a request's resource policy, each combination computed once:
 * every image variant carries its own CSP, and rebuilding the list took a cache hit microseconds (measured),
 * where looking it up takes well under one.
 */
export function securityHeaders(contentSecurityPolicy: string | undefined, resourcePolicy: string | undefined): readonly string[] {
  if (contentSecurityPolicy === undefined && resourcePolicy === undefined) return SECURITY_HEADER_LIST;
  let byResourcePolicy = SECURITY_HEADER_LISTS.get(contentSecurityPolicy);
  if (byResourcePolicy === undefined)
    SECURITY_HEADER_LISTS.set(contentSecurityPolicy, (byResourcePolicy = new Map<string | undefined, readonly string[]>()));
  let list = byResourcePolicy.get(resourcePolicy);
  if (list === undefined) byResourcePolicy.set(resourcePolicy, (list = withOverrides(contentSecurityPolicy, resourcePolicy)));
  return list;
}

function withOverrides(contentSecurityPolicy: string | undefined, resourcePolicy: string | undefined): string[] {
  return SECURITY_HEADERS.flatMap(([name, value]) => [
    name,
    (name === 'Content-Security-Policy' ? contentSecurityPolicy : name === 'Cross-Origin-Resource-Policy' ? resourcePolicy : undefined) ??
      value,
  ]);
}
