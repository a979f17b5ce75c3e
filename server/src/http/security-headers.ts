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
