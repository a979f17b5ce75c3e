import type { IncomingMessage } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler, Response, Router } from 'express';
import type { Answer, HttpCachingPolicy } from './answer.js';
import { decodePathSegment } from './decode-path-segment.js';
import { allowOnlyGetAndHead } from './method-not-allowed.js';
import type { CacheableRoute } from './response-cache.js';
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
 * One route, declared once by its slice: its path in Express's syntax (`/products/:id`; an `/api` route's under
 * API_BASE, a page's at the root), and
 * how it reads a request into what it answers for (`Input`: an id, a query) or refuses it. The declaration
 * feeds the three places that name a route: Express's path (mountApiRoute), the response cache's matcher
 * (cacheableRoute, which reads the URL with the same `read`, so a URL it takes is one Express would answer the
 * same way) and the OpenAPI document's path (openApiPath). A cacheable route reaches the first two through
 * CachedRoute and mountCachedRoutes below.
 */
export interface DeclaredRoute<Input> {
  readonly path: string;
  /** Whether `read` looks at the query: the response cache leaves a URL with a query to Express otherwise. */
  readonly readsQuery: boolean;
  read(request: RouteRequest): Input | Refusal;
}

/** A route's declaration, typed by what it reads (`apiRoute<number>({ path: '/products/:id', … })`). */
export function apiRoute<Input>(route: DeclaredRoute<Input>): DeclaredRoute<Input> {
  return route;
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'error' in value;
}

/** The route as the metrics name it (`/api/products/:id`): Express's `baseUrl` and route path. */
export function apiPattern(route: DeclaredRoute<unknown>): string {
  return `${API_BASE}${route.path}`;
}

/** The route's path as the OpenAPI document writes it, relative to its server `/api`: `/products/{id}`. */
export function openApiPath(route: DeclaredRoute<unknown>): string {
  return route.path.replace(/:(\w+)/g, '{$1}');
}

/** The query string of a request target (`/path?a=1` → `a=1`), undecoded; empty when there is none. */
export function rawQueryOf(url: string): string {
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start + 1);
}

/** Which side of the app a cached route is on (http/slice.ts): its path's prefix, its rate limit, its other methods. */
export type RouteScope = 'api' | 'site';

const SCOPES: Record<RouteScope, { base: string; rateLimited: boolean; otherMethods: RequestHandler | null }> = {
  // Under /api: rate limited, and any method but GET and HEAD a JSON 405.
  api: { base: API_BASE, rateLimited: true, otherMethods: allowOnlyGetAndHead },
  // A page: other methods fall through to the site's last word, as for any path the site does not serve.
  site: { base: '', rateLimited: false, otherMethods: null },
};

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
 * A cacheable route, declared once by its slice: the route (what it reads of a request), where it lives, and the
 * two looks at what it answers — `get`, which may wait (a miss or a stale copy asks the catalogue: Express's path),
 * and `peek`, which never does (a fresh, prepared entry or nothing: the response cache's). mountCachedRoutes makes
 * Express's handler and the response cache's entry from this one declaration; each path reads the URL once, with
 * the route's one `read`.
 */
export interface CachedRoute<Input> {
  readonly route: DeclaredRoute<Input>;
  readonly scope: RouteScope;
  get(input: Input, req: IncomingMessage): Promise<Answer | UncachedAnswer>;
  peek(input: Input, req: IncomingMessage): Answer | undefined;
  /** Answers what `get` throws (the catalogue's failures, failure-answers.ts); none: Express's 500. */
  readonly failures?: ErrorRequestHandler;
}

type Reads<Input> = Omit<CachedRoute<Input>, 'route' | 'scope'>;

/** A cacheable `/api` route's declaration, typed by what its route reads. */
export function cachedApiRoute<Input>(route: DeclaredRoute<Input>, reads: Reads<Input>): CachedRoute<Input> {
  return { route, scope: 'api', ...reads };
}

/** A cacheable page's declaration: its route's path at the root, read from the whole URL. */
export function cachedSiteRoute<Input>(route: DeclaredRoute<Input>, reads: Reads<Input>): CachedRoute<Input> {
  return { route, scope: 'site', ...reads };
}

/** The route as the metrics name it: Express's `baseUrl` and route path (`/api/products/:id`, `/productdetails/:id`). */
export function routePattern({ route, scope }: CachedRoute<unknown>): string {
  return `${SCOPES[scope].base}${route.path}`;
}

/**
 * Mounts each route on the slice's router in the order given (Express's order: see the slice's route list), its
 * handler sending what `get` answers (cachedRouteHandler), and returns the response cache's entries for the same
 * routes, in the same order: the slice's `cacheableRoutes`.
 */
export function mountCachedRoutes(
  router: Router,
  routes: readonly CachedRoute<unknown>[],
  caching: HttpCachingPolicy,
): CacheableRoute<unknown>[] {
  return routes.map((cached) => {
    const { otherMethods } = SCOPES[cached.scope];
    const mounted = router.route(cached.route.path).get(cachedRouteHandler(cached, caching), ...(cached.failures ? [cached.failures] : []));
    if (otherMethods) mounted.all(otherMethods);
    return cacheableRoute(cached);
  });
}

/**
 * Express's side of a cached route: the request read (a refusal is the 400), then what `get` answers sent by the
 * one rule (sendCachedAnswer), or, for an answer no cache keeps, as it is with `no-store`.
 */
export function cachedRouteHandler<Input>(cached: CachedRoute<Input>, caching: HttpCachingPolicy): RequestHandler {
  return readingRequest(cached.route, async (input, req, res) => {
    const answer = await cached.get(input, req);
    if (!('status' in answer)) return sendCachedAnswer(req, res, answer, caching);
    res.status(answer.status).set('Cache-Control', 'no-store');
    if (answer.retryAfterSeconds !== undefined) res.set('Retry-After', String(answer.retryAfterSeconds));
    res.type(answer.type).send(answer.body);
  });
}

/**
 * Mounts a route that is not cached on its slice's router (under API_BASE): GET and HEAD read the request (a
 * refusal is the 400) and hand what was read to `handle`; any other method is a 405.
 */
export function mountApiRoute<Input>(
  router: Router,
  route: DeclaredRoute<Input>,
  handle: (input: Input, req: Request, res: Response) => Promise<void> | void,
): void {
  router.route(route.path).get(readingRequest(route, handle)).all(allowOnlyGetAndHead);
}

function readingRequest<Input>(
  route: DeclaredRoute<Input>,
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

/**
 * The route for the response cache in front of Express: the URL matched exactly against the route's path (any
 * other spelling — a trailing slash, another case, a query the route does not read — is Express's), its
 * parameters decoded as Express's route decodes them, and what the route's `read` made of it handed to `peek`. A
 * URL the route refuses is left to Express, which says why.
 */
export function cacheableRoute<Input>(cached: CachedRoute<Input>): CacheableRoute<Input> {
  const { route } = cached;
  const pattern = routePattern(cached);
  const names: string[] = [];
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:(\w+)/g, (_segment, name: string) => {
    names.push(name);
    return '/([^/?]+)';
  });
  const exact = new RegExp(`^${source}(?:\\?(.*))?$`);
  const nothingAsked: RouteRequest = Object.freeze({ params: Object.freeze({}), query: '', url: pattern });
  return {
    pattern,
    rateLimited: SCOPES[cached.scope].rateLimited,
    match(url) {
      // The path alone, no parameters, no query (`/api/products`, the request answered most): no regex to run.
      if (names.length === 0 && url === pattern) {
        const input = route.read(nothingAsked);
        return isRefusal(input) ? undefined : input;
      }
      const found = exact.exec(url);
      if (found === null) return undefined;
      const query = found[names.length + 1];
      if (query !== undefined && !route.readsQuery) return undefined;
      const params: Record<string, string> = {};
      for (const [index, name] of names.entries()) {
        const value = decodePathSegment(found[index + 1] ?? '');
        if (value === undefined) return undefined;
        params[name] = value;
      }
      const input = route.read({ params, query: query ?? '', url });
      return isRefusal(input) ? undefined : input;
    },
    peek: (input, req) => cached.peek(input, req),
  };
}
