import type { Request, Response } from 'express';
import { chooseEncoding } from './accept-encoding.js';
import { type Answer, type HttpCachingPolicy, prepareAnswer, writeAnswer } from './answer.js';

/**
 * Sends a cached answer from an Express route (a miss, a stale copy, or anything the response cache in front
 * left to Express) by the same rule the response cache uses, prepareAnswer: choosing the encoding and comparing
 * validators are the only work done per request.
 */
export function sendCachedAnswer(req: Request, res: Response, answer: Answer, policy: HttpCachingPolicy): void {
  const prepared = prepareAnswer(
    answer,
    {
      encoding: chooseEncoding(req.headers['accept-encoding']),
      ifNoneMatch: req.headers['if-none-match'],
      requestId: res.locals.requestId ?? '',
      rateLimit: res.locals.rateLimit,
      cors: res.locals.cors,
    },
    policy,
  );
  writeAnswer(res, prepared);
}
