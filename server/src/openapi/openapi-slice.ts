import { Router } from 'express';
import { encodeBody, type EncodedBody, encodeJsonBody } from '../bodies/encoded-body.js';
import { type Answer, httpCachingPolicy } from '../http/answer.js';
import { mountApiRoute } from '../http/cached-route.js';
import { sendCachedAnswer } from '../http/send-answer.js';
import type { Slice } from '../http/slice.js';
import { OPENAPI_DOCUMENT } from './openapi-document.js';
import { renderReferencePage } from './openapi-reference-page.js';
import { OPENAPI_CACHE_CONTROL, OPENAPI_ROUTES } from './openapi-routes.js';

// The answers carry their own Cache-Control (OPENAPI_CACHE_CONTROL), so the catalogue's stale-serving policy,
// which only shapes the Cache-Control of catalogue answers, does not apply to them.
const UNUSED_POLICY = httpCachingPolicy({ cacheTtlSeconds: 0, staleMaxSeconds: 0 });

/**
 * `/api/openapi.json` (the OpenAPI 3.1 document of `/api`) and `/api/docs` (its reference page). Both bodies are
 * built and compressed once, when the slice is made, and answered like any cached answer (sendCachedAnswer):
 * gzip or brotli by `Accept-Encoding`, an `ETag` with `304`s, the security and rate-limit headers. They change
 * only with a deploy.
 */
export function createOpenApiSlice(): Slice {
  const router = Router();
  const document = encodeJsonBody(OPENAPI_DOCUMENT);
  const page = encodeBody(Buffer.from(renderReferencePage(OPENAPI_DOCUMENT), 'utf8'));
  mountApiRoute(router, OPENAPI_ROUTES.document, answerWith(document, 'application/json; charset=utf-8'));
  mountApiRoute(router, OPENAPI_ROUTES.referencePage, answerWith(page, 'text/html; charset=utf-8'));
  return { mount: 'api', router, close: () => undefined };
}

function answerWith(body: Promise<EncodedBody>, contentType: string): Parameters<typeof mountApiRoute<string>>[2] {
  return async (_input, req, res) => {
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
