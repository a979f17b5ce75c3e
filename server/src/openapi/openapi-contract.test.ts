import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { answerChecker } from '../testing/answer-watch.js';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import type { ResponseObject } from 'openapi3-ts/oas31';
import { type ApiDocument, HTTP_METHODS, type HttpMethod, OPENAPI_DOCUMENT } from './openapi-document.js';
import { MAX_API_URL_LENGTH } from '../http/uri-too-long.js';

/**
 * The contract: real answers of the real server (startTestSite: buildServer in front of the upstream double,
 * serving the messy fixture catalogue) hold to the OpenAPI document. Every answer of every test site is checked so
 * (testing/answer-watch.ts); here each operation is asked for on purpose, each answer checked against the operation
 * the test names (not only the one the URL routes to), and the last test checks that every status the document
 * lists was produced by some request here.
 */

/** The document with every `$ref` replaced by what it names, as a client library would read it. */
let resolved: ApiDocument;
const checker = answerChecker();

beforeAll(() => {
  resolved = checker.document;
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request, its headers exactly as given (no client adds its own caching or encoding headers). */
function send(site: TestSite, method: string, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${site.url}${url}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every `METHOD path status` an answer here was checked against. */
const produced = new Set<string>();

/** The test sites run with the default configuration's rate limit and CORS (`CORS_ORIGINS=*`) unless a block says otherwise. */
const SETTINGS = { rateLimited: true, anyOrigin: true };

function checkAgainst(response: ResponseObject, answer: Answer, method: string, what: string): void {
  const problems = checker.problemsAgainst(response, { method, url: '', ...answer }, SETTINGS, what);
  expect(problems).toEqual([]);
}

/** Checks an answer against the document's operation `method path`, and records the status as produced. */
function expectDocumented(path: string, method: HttpMethod, answer: Answer, asMethod = method.toUpperCase()): void {
  const operation = resolved.paths[path]?.[method];
  expect(operation, `${method.toUpperCase()} ${path} is not documented`).toBeDefined();
  const response = operation!.responses?.[String(answer.status)] as ResponseObject | undefined;
  const what = `${asMethod} ${path} → ${answer.status}`;
  expect(response, `${what} is not documented`).toBeDefined();
  checkAgainst(response!, answer, asMethod, what);
  produced.add(`${method} ${path} ${answer.status}`);
}

/** The request path for a documented path, its parameters filled in. */
function url(path: string, query = ''): string {
  return `/api${path.replace('{id}', '1').replace('{name}', 'jewelery')}${query}`;
}

/** A URL short enough for a test's title. */
function shortened(target: string): string {
  return target.length <= 100 ? target : `${target.slice(0, 80)}… (${target.length} characters)`;
}

const DOCUMENTED_PATHS = () => Object.keys(OPENAPI_DOCUMENT.paths);

describe('with the upstream double up', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startTestSite();
  });
  afterAll(async () => {
    await site.close();
  });

  const GOOD: [path: string, url: string][] = [
    ['/products', '/api/products'],
    ['/products', '/api/products?limit=3&sort=desc&utm_source=ignored'],
    ['/products', '/api/products?sort=asc'],
    ['/products', `/api/products?limit=1&sort=asc`],
    ['/products/{id}', '/api/products/1'],
    ['/products/{id}', '/api/products/5'], // no rating
    ['/products/{id}', '/api/products/0019'], // leading zeros, a hostile category
    ['/products/{id}', '/api/products/20'],
    ['/products/{id}/image', '/api/products/1/image'],
    ['/products/{id}/image', '/api/products/1/image?w=160'],
    ['/products/search', '/api/products/search'],
    ['/products/search', '/api/products/search?q=%20WOMEN&sort=priceHighLow&page=1'],
    ['/products/search', `/api/products/search?category=${encodeURIComponent(FIXTURE_PRODUCTS[18]!.category)}&sort=nameAZ`],
    ['/products/search', '/api/products/search?page=99'],
    ['/products/search', '/api/products/search?q=a&minPrice=10&maxPrice=200&minRating=3'],
    ['/products/search', '/api/products/search?minPrice=5000'],
    ['/products/suggestions', '/api/products/suggestions?q=mens'],
    ['/products/suggestions', '/api/products/suggestions'],
    ['/products/categories', '/api/products/categories'],
    ['/products/category/{name}', '/api/products/category/jewelery'],
    ['/products/category/{name}', `/api/products/category/${encodeURIComponent(FIXTURE_PRODUCTS[18]!.category)}`],
    ['/products/category/{name}', `/api/products/category/${encodeURIComponent(FIXTURE_PRODUCTS[19]!.category)}?limit=1&sort=desc`],
    ['/products/category/{name}', '/api/products/category/no%20such%20category'],
    ['/products/category/{name}', '/api/products/category/nul%00byte'],
    ['/products/category/{name}', `/api/products/category/${'long'.repeat(400)}`],
    ['/products/category/{name}', '/api/products/category/%F0%9F%8F%95%EF%B8%8F'],
    ['/openapi.json', '/api/openapi.json'],
    ['/docs', '/api/docs'],
  ];

  it.each(GOOD.map(([path, target]) => [path, shortened(target), target]))(
    'GET %s: %s → 200, then 304 for its ETag, and HEAD',
    async (path, _title, target) => {
      const answer = await send(site, 'GET', target);
      expect(answer.status).toBe(200);
      expectDocumented(path, 'get', answer);

      const etag = answer.headers.etag;
      expect(etag).toBeDefined();
      const revalidated = await send(site, 'GET', target, { 'If-None-Match': etag! });
      expect(revalidated.status).toBe(304);
      expectDocumented(path, 'get', revalidated);

      const head = await send(site, 'HEAD', target);
      expect(head.status).toBe(200);
      expectDocumented(path, 'get', head, 'HEAD');
    },
  );

  it('answers what the document says of the hostile categories and the unknown one', async () => {
    const hostile = FIXTURE_PRODUCTS[19]!.category;
    const answer = await send(site, 'GET', `/api/products/category/${encodeURIComponent(hostile)}`);
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual([expect.objectContaining({ id: 20, category: hostile })]);
    const unknown = await send(site, 'GET', '/api/products/category/no%20such%20category');
    expect(JSON.parse(unknown.body.toString('utf8'))).toEqual([]);
    const categories = await send(site, 'GET', '/api/products/categories');
    expect(JSON.parse(categories.body.toString('utf8'))).toContain(hostile);
  });

  it('serves the document itself at /api/openapi.json', async () => {
    const answer = await send(site, 'GET', '/api/openapi.json');
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT)));
  });

  const BAD: [path: string, url: string, message: RegExp][] = [
    ['/products', '/api/products?limit=0', /limit/],
    ['/products', '/api/products?limit=-1', /limit/],
    ['/products', '/api/products?limit=1.5', /limit/],
    ['/products', '/api/products?limit=1e3', /limit/],
    ['/products', '/api/products?limit=abc', /limit/],
    ['/products', '/api/products?limit=', /limit/],
    ['/products', '/api/products?limit=99999999999999999999', /limit/],
    ['/products', '/api/products?limit=1&limit=2', /limit/],
    ['/products', '/api/products?sort=up', /sort/],
    ['/products', '/api/products?sort=', /sort/],
    ['/products', '/api/products?sort=asc&sort=desc', /sort/],
    ['/products/{id}', '/api/products/abc', /Invalid Product ID/],
    ['/products/{id}', '/api/products/1.5', /Invalid Product ID/],
    ['/products/{id}', '/api/products/-1', /Invalid Product ID/],
    ['/products/{id}', '/api/products/1e3', /Invalid Product ID/],
    ['/products/{id}', '/api/products/%201', /Invalid Product ID/],
    ['/products/{id}', '/api/products/99999999999999999999', /Invalid Product ID/],
    ['/products/{id}', '/api/products/%E0', /percent-escape/],
    ['/products/{id}/image', '/api/products/abc/image', /Invalid Product ID/],
    ['/products/{id}/image', '/api/products/1/image?w=321', /Invalid image width/],
    ['/products/{id}/image', '/api/products/1/image?w=0320', /Invalid image width/],
    ['/products/{id}/image', '/api/products/1/image?w=', /Invalid image width/],
    ['/products/{id}/image', '/api/products/1/image?w=160&w=240', /Invalid image width/],
    ['/products/category/{name}', '/api/products/category/jewelery?limit=0', /limit/],
    ['/products/category/{name}', '/api/products/category/jewelery?sort=name', /sort/],
    ['/products/category/{name}', '/api/products/category/%E0%A4%A', /percent-escape/],
    ['/products/category', '/api/products/category', /category name/],
    ['/products/search', `/api/products/search?q=${'x'.repeat(201)}`, /q must be/],
    ['/products/search', '/api/products/search?sort=asc', /sort must be/],
    ['/products/search', '/api/products/search?page=0', /page must be/],
    ['/products/search', '/api/products/search?q=a&q=b', /q must be given at most once/],
    ['/products/search', '/api/products/search?minPrice=-1', /minPrice must be/],
    ['/products/search', '/api/products/search?minPrice=9&maxPrice=1', /minPrice must not be more/],
    ['/products/search', '/api/products/search?minRating=5', /minRating must be/],
    ['/products/suggestions', '/api/products/suggestions?q=a&q=b', /q must be given at most once/],
  ];

  it.each(BAD)('GET %s: %s → 400', async (path, target, message) => {
    const answer = await send(site, 'GET', target);
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.body.toString('utf8')) as { error: string }).error).toMatch(message);
    expectDocumented(path, 'get', answer);
  });

  it.each([
    ['150 emoji', '😀'.repeat(150)],
    ['199 letters and an emoji', `${'a'.repeat(199)}😀`],
    ['200 letters and an emoji', `${'a'.repeat(200)}😀`],
    ['200 accented letters', 'é'.repeat(200)],
    ['201 accented letters', 'é'.repeat(201)],
    ['201 replacement characters', '\ufffd'.repeat(201)],
  ])('GET /products/search: q of %s is refused exactly when the document’s maxLength refuses it', async (_name, text) => {
    const sent = text;
    const schema = resolved.components.parameters.SearchText!.schema!;
    const allowed = checker.validatesAgainst(schema, sent);
    const answer = await send(site, 'GET', `/api/products/search?q=${encodeURIComponent(sent)}`);
    expect(answer.status).toBe(allowed ? 200 : 400);
    expectDocumented('/products/search', 'get', answer);
  });

  it.each([
    ['/products/{id}', '/api/products/999'],
    ['/products/{id}/image', '/api/products/999/image'],
    ['/products/{id}/image', '/api/products/999/image?w=320'],
  ])('GET %s: %s (no such product) → 404', async (path, target) => {
    const answer = await send(site, 'GET', target);
    expect(answer.status).toBe(404);
    expectDocumented(path, 'get', answer);
  });

  it('answers 502 for an image the upstream fails to send', async () => {
    site.upstream.override('/images/2.png', 'status500');
    const answer = await send(site, 'GET', '/api/products/2/image');
    expect(answer.status).toBe(502);
    expectDocumented('/products/{id}/image', 'get', answer);
  });

  it.each(DOCUMENTED_PATHS())(`%s: over ${MAX_API_URL_LENGTH} characters → 414`, async (path) => {
    const answer = await send(site, 'GET', url(path, `?pad=${'x'.repeat(MAX_API_URL_LENGTH)}`));
    expect(answer.status).toBe(414);
    expectDocumented(path, 'get', answer);
  });

  it.each(DOCUMENTED_PATHS())('%s: every method it does not document answers the MethodNotAllowed response', async (path) => {
    const item = resolved.paths[path]!;
    const others = HTTP_METHODS.filter((method) => item[method] === undefined && method !== 'options' && method !== 'head');
    expect(others.length).toBeGreaterThan(0);
    for (const method of others) {
      // TRACE is refused by Node's client; the server's router treats it like the others.
      if (method === 'trace') continue;
      const answer = await send(site, method.toUpperCase(), url(path));
      expect(answer.status, `${method} ${path}`).toBe(405);
      checkAgainst(resolved.components.responses.MethodNotAllowed!, answer, method.toUpperCase(), `${method} ${path}`);
    }
    produced.add(`other ${path} 405`);
  });

  it.each(DOCUMENTED_PATHS())('%s: OPTIONS and a CORS preflight answer the Options response', async (path) => {
    const options = resolved.components.responses.Options!;
    const plain = await send(site, 'OPTIONS', url(path));
    expect(plain.status).toBe(204);
    checkAgainst(options, plain, 'OPTIONS', `OPTIONS ${path}`);
    const preflight = await send(site, 'OPTIONS', url(path), { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' });
    expect(preflight.status).toBe(204);
    checkAgainst(options, preflight, 'OPTIONS', `preflight ${path}`);
    expect(preflight.headers['access-control-allow-methods']).toBeDefined();
    produced.add(`options ${path} 204`);
  });
});

describe('with copies past their freshness', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startTestSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it.each([
    ['/products', '/api/products'],
    ['/products/{id}', '/api/products/1'],
    ['/products/search', '/api/products/search?q=bag'],
    ['/products/suggestions', '/api/products/suggestions?q=bag'],
    ['/products/categories', '/api/products/categories'],
    ['/products/category/{name}', '/api/products/category/jewelery?sort=desc'],
  ])('GET %s: %s → 200 STALE, with the headers the document lists', async (path, target) => {
    expect((await send(site, 'GET', target)).status).toBe(200);
    site.clock.advanceSeconds(site.config.cacheTtlSeconds + 1);
    const answer = await send(site, 'GET', target);
    expect(answer.headers['x-cache']).toBe('STALE');
    expectDocumented(path, 'get', answer);
    await site.catalogue.settled();
  });
});

describe('with CORS_ORIGINS listing one origin', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startTestSite({ config: { CORS_ORIGINS: 'https://app.example' } });
  });
  afterAll(async () => {
    await site.close();
  });

  // The answers now depend on Origin (Vary names it too); a listed origin still gets every documented header.
  it.each([
    ['/products', '/api/products'],
    ['/products/{id}', '/api/products/1'],
    ['/products/category/{name}', '/api/products/category/jewelery?limit=2'],
    ['/openapi.json', '/api/openapi.json'],
  ])('GET %s from the listed origin: %s', async (path, target) => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      // The second answer is a fresh hit. Which path sends it is not observable here; response-cache.test.ts holds the
      // layer's answers, Origin included, byte for byte to Express's.
      const answer = await send(site, 'GET', target, { Origin: 'https://app.example' });
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe('https://app.example');
      expectDocumented(path, 'get', answer);
    }
  });
});

describe('with a rate limit of one request a minute', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startTestSite({ config: { RATE_LIMIT_PER_MINUTE: '1' } });
    expect((await send(site, 'GET', '/api/products')).status).toBe(200);
  });
  afterAll(async () => {
    await site.close();
  });

  it.each(DOCUMENTED_PATHS())('%s → 429', async (path) => {
    const answer = await send(site, 'GET', url(path));
    expect(answer.status).toBe(429);
    expectDocumented(path, 'get', answer);
  });
});

describe.each([
  ['down', {}, 'refuse', 502],
  ['hanging', { UPSTREAM_TIMEOUT_MS: '50' }, 'hang', 504],
] as const)('with the upstream %s and nothing cached', (_name, config, mode, status) => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startTestSite({ config });
    await site.upstream.setMode(mode);
  });
  afterAll(async () => {
    site.upstream.dropHangingRequests();
    await site.upstream.setMode('normal');
    await site.close();
  });

  const CATALOGUE_PATHS = [
    '/products',
    '/products/search',
    '/products/suggestions',
    '/products/{id}',
    '/products/{id}/image',
    '/products/categories',
    '/products/category/{name}',
  ];
  it.each(CATALOGUE_PATHS)(`%s → ${status}`, async (path) => {
    const answer = await send(site, 'GET', url(path));
    expect(answer.status).toBe(status);
    expectDocumented(path, 'get', answer);
  });
});

describe('what the requests above produced', () => {
  it('covers every status the document lists, for every operation, and every path’s other methods', () => {
    const listed = Object.entries(OPENAPI_DOCUMENT.paths).flatMap(([path, item]) => [
      ...HTTP_METHODS.flatMap((method) => Object.keys(item[method]?.responses ?? {}).map((status) => `${method} ${path} ${status}`)),
      `other ${path} 405`,
      `options ${path} 204`,
    ]);
    expect(listed.filter((entry) => !produced.has(entry))).toEqual([]);
  });
});
