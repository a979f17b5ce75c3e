import { apiRoute } from '../http/api-route.js';

/** The OpenAPI slice's two routes under `/api` (http/api-route.ts), which read nothing of the request. */
export const OPENAPI_ROUTES = {
  document: apiRoute<string>({ path: '/openapi.json', readsQuery: false, read: () => 'document' }),
  referencePage: apiRoute<string>({ path: '/docs', readsQuery: false, read: () => 'page' }),
};
