import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { OperationObject } from 'openapi3-ts/oas31';
import type { Logger } from '../logger.js';
import type { Answer, HttpCachingPolicy } from './answer.js';
import type { Failure } from '../outcomes/failure.js';
import { answerFailures } from './failure-answers.js';
import { allowOnlyGetAndHead } from './method-not-allowed.js';
import type { ResponseCache } from './response-cache.js';
import { sendCachedAnswer } from './send-answer.js';

/** Where the JSON API is mounted (app.ts): every `/api` route's path is under it. */
export const API_BASE = '/api';

/** A request a route will not answer: a 400 with this one-line message, before anything reaches the catalogue. */
export interface Refusal {
  error: string;
}

/**
 * What a route reads of a request: its path parameters, decoded as Express decodes them, its raw query, and the
 * whole target as received (a page resolves it as the browser's router does: shared/src/page-routes.ts).
 */
export interface RouteRequest {
  params: Readonly<Record<string, string>>;
  /** What follows `?`, undecoded; '' when there is none. */
  query: string;
  /** Path and query as received (`/products?q=bag`). */
  url: string;
}

/**
 * A route: its path in Express's syntax (`/products/:id`; an `/api` route's under API_BASE, a page's at the root),
 * the one reading of a request into what it answers for (`Input`: an id, a query) or a refusal, and, for an `/api`
 * route, its operation in the OpenAPI document (openapi/openapi-document.ts lists the routes' operations).
 */
export interface Route<Input> {
  readonly path: string;
  read(request: RouteRequest): Input | Refusal;
  readonly operation?: OperationObject;
}

/**
 * An answer no cache keeps, sent as it is with `Cache-Control: no-store`: a page's error page, a page that cannot
 * be rendered (a bad Host, no build).
 */
export interface UncachedAnswer {
  readonly status: number;
  /** Express's short name: `html`, `text`. */
  readonly type: 'html' | 'text';
  readonly body: string;
  /** When the catalogue could not answer (503): how soon to come back. */
  readonly retryAfterSeconds?: number;
}

/**
 * A cached route, one object: the route (path, reading, operation), which side of the app it is on, what it answers
 * for what it read — made from the parts its slice hands over when mounting (the catalogue, a body cache) — what
 * that answer varies by besides its URL, and its messages for the catalogue's failures. Express's handler and what
 * the response cache keeps are both made from it (cachedRouteMount): the route is written in one place.
 */
export interface CachedRoute<Input, Parts> extends Route<Input> {
  /** `api`: under API_BASE, rate limited, CORS, other methods a 405. `site`: at the root (a page). */
  readonly scope: 'api' | 'site';
  /** What the route answers; may wait for the catalogue (a miss, a stale copy). */
  answer(input: Input, parts: Parts, req: IncomingMessage): Promise<Answer | UncachedAnswer>;
  /** What the answer depends on besides its URL and `Accept-Encoding` (the response cache keeps one per value). */
  readonly variesBy?: (req: IncomingMessage, parts: Parts) => string;
  /** The messages of the catalogue's failures (failure-answers.ts); none: Express's 500. */
  readonly failures?: Readonly<Record<Failure, string>>;
}

/**
 * Mounts a slice's cached routes on its router, in Express's order, with the parts their answers are made from;
 * returns each route's GET handler, in the same order (a page answers an undecodable URL with its own).
 */
export type CachedRouteMount = <Parts>(router: Router, routes: readonly CachedRoute<unknown, Parts>[], parts: Parts) => RequestHandler[];

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'error' in value;
}

/** The route's path as the OpenAPI document writes it, relative to its server `/api`: `/products/{id}`. */
export function openApiPath(route: Route<unknown>): string {
  return route.path.replace(/:(\w+)/g, '{$1}');
}

/** The query string of a request target (`/path?a=1` → `a=1`), undecoded; empty when there is none. */
export function rawQueryOf(url: string): string {
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start + 1);
}

/**
 * How every slice mounts its cached routes (buildServer makes it once): each route's GET and HEAD read the request
 * (a refusal is the 400), then send what `answer` made by the one rule (sendCachedAnswer) and hand it to the
 * response cache to keep, or send an answer no cache keeps as it is; its failures answered by its messages; any
 * other method on an `/api` route a 405.
 */
export function cachedRouteMount({
  caching,
  responses,
  logger,
}: {
  caching: HttpCachingPolicy;
  responses: Pick<ResponseCache, 'keep'>;
  logger: Logger;
}): CachedRouteMount {
  return (router, routes, parts) =>
    routes.map((route) => {
      const api = route.scope === 'api';
      const { variesBy } = route;
      const kept = {
        pattern: `${api ? API_BASE : ''}${route.path}`,
        api,
        ...(variesBy && { variesBy: (req: IncomingMessage) => variesBy(req, parts) }),
      };
      const handler = readingRequest(route, async (input, req, res) => {
        const answer = await route.answer(input, parts, req);
        if (!('status' in answer)) {
          sendCachedAnswer(req, res, answer, caching);
          return responses.keep(req.originalUrl, req, kept, answer);
        }
        res.status(answer.status).set('Cache-Control', 'no-store');
        if (answer.retryAfterSeconds !== undefined) res.set('Retry-After', String(answer.retryAfterSeconds));
        res.type(answer.type).send(answer.body);
      });
      const mounted = router.route(route.path).get(handler, ...(route.failures ? [answerFailures(route.failures, logger)] : []));
      if (api) mounted.all(allowOnlyGetAndHead);
      return handler;
    });
}

/**
 * Mounts an `/api` route that is not cached on its slice's router: GET and HEAD read the request (a refusal is the
 * 400) and hand what was read to `handle`; any other method is a 405.
 */
export function mountApiRoute<Input>(
  router: Router,
  route: Route<Input>,
  handle: (input: Input, req: Request, res: Response) => Promise<void> | void,
): void {
  router.route(route.path).get(readingRequest(route, handle)).all(allowOnlyGetAndHead);
}

function readingRequest<Input>(
  route: Route<Input>,
  handle: (input: Input, req: Request, res: Response) => Promise<void> | void,
): RequestHandler {
  return async (req, res) => {
    const url = req.originalUrl;
    const input = route.read({ params: req.params as Record<string, string>, query: rawQueryOf(url), url });
    if (isRefusal(input)) {
      res.status(400).set('Cache-Control', 'no-store').json({ error: input.error });
      return;
    }
    await handle(input, req, res);
  };
}
