import { MESSAGES } from '@catalogue/shared/messages';
import { rateLimit } from 'express-rate-limit';
import type { RequestHandler } from 'express';

/**
 * At most `limitPerMinute` API requests per client address per minute (RATE_LIMIT_PER_MINUTE), counted in
 * this process's memory: behind N replicas a client gets up to N times as many. Answers carry the IETF
 * `RateLimit` headers; the 429 is JSON like every other API error.
 */
export function createApiRateLimit(limitPerMinute: number): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: limitPerMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).set('Cache-Control', 'no-store').json({ error: MESSAGES.tooManyRequests });
    },
    // An X-Forwarded-For header without TRUST_PROXY is expected (the operator chose not to trust it), not a
    // misconfiguration to report on every request.
    validate: { xForwardedForHeader: false },
  });
}
