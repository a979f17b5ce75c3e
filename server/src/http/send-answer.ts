import type { Request, Response } from 'express';
import { requestContextOf } from './request-context.js';
import { type Answer, type HttpCachingPolicy, prepareAnswer, writeAnswer } from './answer.js';
import { createMemoisedEncodingChooser } from './memoised-encoding.js';

const chooseEncoding = createMemoisedEncodingChooser();

/**
 * Sends a cached answer from an Express route (a miss, a stale copy, or anything the response cache in front
 * left to Express) by the same rule the response cache uses, prepareAnswer: choosing the encoding and comparing
 * validators are the only work done per request. The request's own headers (id, rate limit, CORS) come from its
 * RequestContext (request-context.ts), and the head is written whole, once.
 *
 * The way for a slice's Express route to send any answer that has a validator (JSON, a page, a photo): the
 * answer gets a strong ETag per encoding and 304s for a matching If-None-Match, the same as from the response
 * cache. Express's own `etag` setting is off (app.ts), so there is no second validator mechanism.
 */
export function sendCachedAnswer(req: Request, res: Response, answer: Answer, policy: HttpCachingPolicy): void {
  const context = requestContextOf(res);
  const prepared = prepareAnswer(
    answer,
    {
      encoding: chooseEncoding(req.headers['accept-encoding']),
      ifNoneMatch: req.headers['if-none-match'],
      requestId: context.requestId,
      rateLimit: context.rateLimit,
      cors: context.cors,
    },
    policy,
  );
  context.cacheStatus = answer.cacheStatus;
  context.headWritten = true;
  // 'close' comes once for every response, sent whole or cut short.
  if (answer.release) res.once('close', answer.release);
  writeAnswer(res, prepared);
}
