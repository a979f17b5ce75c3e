import type { Route } from '../http/cached-route.js';

/** The OpenAPI slice's two routes under `/api` (http/cached-route.ts), which read nothing of the request. */
export const OPENAPI_ROUTES = {
  document: { path: '/openapi.json', read: () => 'document' } satisfies Route<string>,
  referencePage: { path: '/docs', read: () => 'page' } satisfies Route<string>,
};

/** How long clients may keep the document and its page: it changes only with a deploy, and revalidating is a 304. */
export const OPENAPI_CACHE_CONTROL = 'public, max-age=300';
