import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCapturingLogger } from '../testing/capturing-logger.js';
import { createStaticDir } from '@catalogue/testing/static-dir';
import { buildServer } from '../build-server.js';
import { loadConfig } from '../config.js';
import type { ExampleObject, ResponseObject } from 'openapi3-ts/oas31';
import { HTTP_METHODS, OPENAPI_DOCUMENT } from './openapi-document.js';
import { publicProductSchema } from '@catalogue/shared/product';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';

/** One Express route: its path under `/api` (`/products/:id`) and the methods it names (`_all` for `.all()`). */
interface AppRoute {
  path: string;
  methods: string[];
}

/** The little of Express 5's router (router 2) this test reads. */
interface RouterLayer {
  rawPath?: unknown;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: RouterLayer[] };
}

/**
 * Every route the app really has under `/api`, found by walking the Express router stack from the app's
 * `/api` mount down through every router mounted in it. A layer that is neither a route, a router, nor a
 * middleware for every path (a handler mounted on a path of its own) fails the walk: it would answer requests
 * the document could not know of.
 */
function apiRoutesOf(app: Express): AppRoute[] {
  const stack = (app.router as unknown as { stack: RouterLayer[] }).stack;
  const apiLayers = stack.filter((layer) => layer.rawPath === '/api');
  expect(apiLayers).toHaveLength(1);
  const routes: AppRoute[] = [];
  const walk = (layers: RouterLayer[], prefix: string) => {
    for (const layer of layers) {
      if (layer.route) {
        routes.push({ path: prefix + layer.route.path, methods: Object.keys(layer.route.methods) });
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, prefix + (layer.rawPath === '/' ? '' : String(layer.rawPath)));
      } else {
        expect(layer.rawPath, 'a handler mounted on a path of its own under /api').toBe('/');
      }
    }
  };
  walk(apiLayers[0]!.handle.stack ?? [], '');
  return routes;
}

/** `/products/:id` → `/products/{id}`. */
function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

describe('the OpenAPI document of /api', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    // A copy, as JSON clients get it: the validator must see what is served, not a TypeScript object.
    const result = await validator.validate(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT)) as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(OPENAPI_DOCUMENT.servers).toEqual([expect.objectContaining({ url: '/api' })]);
  });

  it('has examples that its own schemas accept, and every reference resolves', async () => {
    const validator = new Validator();
    await validator.validate(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT)) as Record<string, unknown>);
    // resolveRefs replaces every $ref by what it names (it throws on one that names nothing).
    const resolved = validator.resolveRefs() as unknown as typeof OPENAPI_DOCUMENT;
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);

    let checked = 0;
    for (const schema of Object.values(resolved.components.schemas)) {
      for (const example of schema.examples ?? []) {
        expect(ajv.validate(schema, example), ajv.errorsText()).toBe(true);
        checked += 1;
      }
    }
    for (const item of Object.values(resolved.paths)) {
      for (const method of HTTP_METHODS) {
        for (const response of Object.values(item[method]?.responses ?? {}) as ResponseObject[]) {
          for (const media of Object.values(response.content ?? {})) {
            const examples = [
              ...(media.example === undefined ? [] : [media.example as unknown]),
              ...Object.values(media.examples ?? {}).map((example) => (example as ExampleObject).value as unknown),
            ];
            for (const example of examples) {
              expect(ajv.validate(media.schema ?? {}, example), ajv.errorsText()).toBe(true);
              checked += 1;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('describes a product exactly as the server’s own validation reads one (both come from one zod schema)', async () => {
    const validator = new Validator();
    await validator.validate(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT)) as Record<string, unknown>);
    const resolved = validator.resolveRefs() as unknown as typeof OPENAPI_DOCUMENT;
    const ajv = new Ajv2020({ strict: true });
    const product = { ...FIXTURE_PRODUCTS[0]!, image: '/api/products/1/image' };
    const { rating: _rating, ...unrated } = product;
    const candidates: unknown[] = [
      product,
      unrated,
      { ...product, title: 'x'.repeat(10_000) },
      { ...product, id: -1 },
      { ...product, id: 1.5 },
      { ...product, id: Number.MAX_SAFE_INTEGER + 2 },
      { ...product, id: '1' },
      { ...product, price: '9.99' },
      { ...product, image: 'https://fakestoreapi.com/img/1.jpg' },
      { ...product, rating: { rate: 4 } },
      { ...product, rating: null },
      { ...product, category: undefined },
      null,
      [],
      'product',
    ];
    for (const candidate of candidates) {
      // JSON, as an answer carries it (no undefined fields).
      const value: unknown = JSON.parse(JSON.stringify(candidate) ?? 'null');
      expect(ajv.validate(resolved.components.schemas.Product!, value), JSON.stringify(value)).toBe(
        publicProductSchema.safeParse(value).success,
      );
    }
  });

  describe('and the routes of the app', () => {
    let routes: AppRoute[];
    let close: () => Promise<void>;

    beforeAll(async () => {
      // The app exactly as production builds it (buildServer), never listening: only its router is read.
      const statics = createStaticDir();
      const built = await buildServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', PRODUCTS_API_URL: '', LOG_LEVEL: 'silent' }), {
        logger: createCapturingLogger('silent').logger,
        staticDir: statics.staticDir,
      });
      routes = apiRoutesOf(built.app as Express);
      close = async () => {
        await built.catalogue.settled();
        built.catalogue.close();
        statics.remove();
      };
    });

    afterAll(async () => {
      await close();
    });

    it('finds the routes it walks (the walk itself works)', () => {
      expect(routes.map((route) => route.path)).toContain('/products/:id');
      expect(routes.map((route) => route.path)).toContain('/openapi.json');
    });

    it('documents every route under /api, with the methods it answers', () => {
      const documented = Object.fromEntries(
        Object.entries(OPENAPI_DOCUMENT.paths).map(([path, item]) => [path, HTTP_METHODS.filter((method) => item[method] !== undefined)]),
      );
      for (const route of routes) {
        const path = openApiPath(route.path);
        expect(Object.keys(documented), `${route.path} is not documented`).toContain(path);
        // GET (and HEAD with it) is documented; `.all()` is the 405 every path answers other methods with.
        expect(
          route.methods.filter((method) => method !== '_all'),
          path,
        ).toEqual(documented[path]);
      }
    });

    it('has a route for every documented operation, answering other methods with the 405', () => {
      const routed = new Map(routes.map((route) => [openApiPath(route.path), route.methods]));
      for (const [path, item] of Object.entries(OPENAPI_DOCUMENT.paths)) {
        expect([...routed.keys()], `${path} is documented but no route serves it`).toContain(path);
        for (const method of HTTP_METHODS.filter((name) => item[name] !== undefined)) {
          expect(routed.get(path), `${method.toUpperCase()} ${path}`).toContain(method);
        }
        expect(routed.get(path), `${path} answers other methods (MethodNotAllowed)`).toContain('_all');
      }
    });
  });
});
