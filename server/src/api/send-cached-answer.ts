import type { Request, Response } from 'express';
import type { CachedAnswer } from '../catalogue/cached-catalogue.js';
import { recordAnswer } from '../hit-path/recorded-answers.js';
import { type BodyEncoding, chooseEncoding } from './accept-encoding.js';

export interface HttpCachingPolicy {
  /** How long a shared cache may serve a stale copy while it fetches a new one. */
  staleWhileRevalidateSeconds: number;
  /** How long a shared cache may serve a stale copy while this server fails. */
  staleIfErrorSeconds: number;
}

/**
 * Sends a cached JSON answer with its HTTP caching headers. Everything sent was prepared when the answer was
 * stored: choosing the encoding and comparing validators are the only work done per request.
 *
 * Each encoding gets its own strong ETag (`"<hash>"`, `"<hash>-gzip"`, `"<hash>-br"`): a strong validator
 * names one exact byte sequence, and the three bodies differ. `If-None-Match` matches any of them, since they
 * carry the same content.
 *
 * A HIT sent whole is recorded (status, every header as sent, body) for the hit path in front of Express, which
 * replays it to the next requests for the same entry and encoding (hit-path/).
 */
export function sendCachedAnswer(req: Request, res: Response, answer: CachedAnswer<unknown>, policy: HttpCachingPolicy): void {
  const encoding = chooseEncoding(req.get('Accept-Encoding'));
  const { body, cacheStatus, ageSeconds, freshForSeconds } = answer;
  res.set({
    ETag: variantTag(body.etag, encoding),
    'Cache-Control': cacheControlFor(freshForSeconds, policy),
    Age: String(ageSeconds),
    'X-Cache': cacheStatus,
    Vary: 'Accept-Encoding',
  });

  if (matchesAnyVariant(req.get('If-None-Match'), body.etag)) {
    res.status(304).end();
    return;
  }

  const bytes = body[encoding];
  res.status(200).set({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(bytes.length) });
  if (encoding !== 'identity') res.set('Content-Encoding', encoding);
  res.end(bytes);
  // Only now are the headers final: anything that hooks writeHead has added its own.
  if (cacheStatus === 'HIT') recordAnswer(res, { body, encoding, sent: bytes, cacheControlFor: (fresh) => cacheControlFor(fresh, policy) });
}

/** The `Cache-Control` of a cached answer with `freshForSeconds` of freshness left. */
function cacheControlFor(freshForSeconds: number, policy: HttpCachingPolicy): string {
  return `public, max-age=${freshForSeconds}, stale-while-revalidate=${policy.staleWhileRevalidateSeconds}, stale-if-error=${policy.staleIfErrorSeconds}`;
}

function variantTag(etag: string, encoding: BodyEncoding): string {
  return encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

function matchesAnyVariant(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const variants = new Set([etag, variantTag(etag, 'gzip'), variantTag(etag, 'br')]);
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || variants.has(tag));
}
