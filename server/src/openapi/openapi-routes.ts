import { apiRoute } from '../http/api-route.js';

/** The OpenAPI slice's two routes under `/api` (http/api-route.ts), which read nothing of the request. */
export const OPENAPI_ROUTES = {
  document: apiRoute<string>({ path: '/openapi.json', readsQuery: false, read: () => 'document' }),
  referencePage: apiRoute<string>({ path: '/docs', readsQuery: false, read: () => 'page' }),
};

/** How long clients may keep the document and its page: it changes only with a deploy, and revalidating is a 304. */
export const OPENAPI_CACHE_CONTROL = 'public, max-age=300';
