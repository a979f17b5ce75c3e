import { Router, type RequestHandler } from 'express';
import { encodeBody, type EncodedBody, encodeJsonBody } from '../http/encoded-body.js';
import type { Answer, HttpCachingPolicy } from '../http/answer.js';
import { allowOnlyGetAndHead } from '../http/method-not-allowed.js';
import { OPENAPI_CACHE_CONTROL, OPENAPI_DOCUMENT } from './openapi-document.js';
import { renderReferencePage } from './openapi-reference-page.js';
import { sendCachedAnswer } from '../http/send-answer.js';

/** The paths this router answers under `/api`. */
export const OPENAPI_PATHS = { document: '/openapi.json', referencePage: '/docs' } as const;

// The answers carry their own Cache-Control (OPENAPI_CACHE_CONTROL), so the catalogue's stale-serving policy,
// which only shapes the Cache-Control of catalogue answers, does not apply to them.
const UNUSED_POLICY: HttpCachingPolicy = { staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0 };

/**
 * `/openapi.json` (the OpenAPI 3.1 document of `/api`) and `/docs` (its reference page), mounted under `/api`.
 * Both bodies are built and compressed once, when the router is made, and answered like any cached answer
 * (sendCachedAnswer): gzip or brotli by `Accept-Encoding`, an `ETag` with `304`s, the security and rate-limit
 * headers. They change only with a deploy.
 */
export function createOpenApiRouter(): Router {
  const router = Router();
  const document = encodeJsonBody(OPENAPI_DOCUMENT);
  const page = encodeBody(Buffer.from(renderReferencePage(OPENAPI_DOCUMENT), 'utf8'));

  router.route(OPENAPI_PATHS.document).get(answerWith(document, 'application/json; charset=utf-8')).all(allowOnlyGetAndHead);
  router.route(OPENAPI_PATHS.referencePage).get(answerWith(page, 'text/html; charset=utf-8')).all(allowOnlyGetAndHead);
  return router;
}

function answerWith(body: Promise<EncodedBody>, contentType: string): RequestHandler {
  return async (req, res) => {
    const answer: Answer = {
      body: await body,
      contentType,
      // Made by this process and held for its life: always a hit, never older than the process's copy.
      cacheStatus: 'HIT',
      ageSeconds: 0,
      freshForSeconds: 0,
      cacheControl: OPENAPI_CACHE_CONTROL,
    };
    sendCachedAnswer(req, res, answer, UNUSED_POLICY);
  };
}
