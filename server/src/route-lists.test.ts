import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_BASE, openApiPath, type Route } from './http/cached-route.js';
import { IMAGE_ROUTE } from './images/image-route.js';
import { OPENAPI_ROUTES } from './openapi/openapi-routes.js';
import { PRODUCTS_ROUTES } from './products/products-routes.js';

/** The repository's own files, read as a newcomer reads them. */
const readDoc = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** A route as the docs write it: `/api/products/{id}`. */
const documented = (route: Route<unknown>) => `${API_BASE}${openApiPath(route)}`;

// `/api/products/category` (no name) is declared apart, only to answer its 400: it is no route a program calls.
const PRODUCT_ROUTES = Object.values(PRODUCTS_ROUTES).map(documented);
const ALL_ROUTES = [...PRODUCT_ROUTES, documented(IMAGE_ROUTE), ...Object.values(OPENAPI_ROUTES).map(documented)];

/** The `/api/...` paths a passage names in code spans, without their queries. */
function apiPathsIn(passage: string): string[] {
  return [...passage.matchAll(/`(\/api\/[^`?]*)/g)].map(([, path]) => path!);
}

/** The paragraph or bullet that starts with `opening`, up to the next blank line or bullet. */
function passage(text: string, opening: string): string {
  const start = text.indexOf(opening);
  expect(start, `"${opening}" not found`).toBeGreaterThan(-1);
  const rest = text.slice(start);
  const end = rest.search(/\n(\n|- )/);
  return end === -1 ? rest : rest.slice(0, end);
}

describe("the docs' route lists against the routes the server declares", () => {
  it("README's list for programs names every /api route, and only declared ones", () => {
    const named = apiPathsIn(passage(readDoc('README.md'), '- **Programs**'));
    expect(new Set(named)).toEqual(new Set(ALL_ROUTES));
  });

  it("docs/architecture.md's response cache names every product route and the photo's", () => {
    const named = apiPathsIn(passage(readDoc('docs/architecture.md'), 'Fresh cache hits on'));
    expect(new Set(named)).toEqual(new Set([...PRODUCT_ROUTES, documented(IMAGE_ROUTE)]));
  });
});
