import { request as httpRequest } from 'node:http';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { rawGet, type RawResponse } from '@catalogue/testing/raw-http';
import { startTestSite, type TestSite, type TestSiteOptions } from '../testing/test-site.js';
import { afterEach, describe, expect, it } from 'vitest';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function start(options: TestSiteOptions = {}): Promise<TestSite> {
  site = await startTestSite(options);
  return site;
}

async function get(path: string, headers: Record<string, string> = {}): Promise<RawResponse & { text: string }> {
  const response = await rawGet(site!.server, path, headers);
  return { ...response, text: response.body.toString('utf8') };
}

/** The content of every `<meta>` with this name or property (attribute values unescaped as a parser would). */
function metaContents(html: string, key: string): string[] {
  const pattern = new RegExp(`<meta (?:name|property)="${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" content="([^"]*)">`, 'g');
  return [...html.matchAll(pattern)].map((match) => unescapeHtml(match[1]!));
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);
}

function titleOf(html: string): string {
  const titles = [...html.matchAll(/<title>([^<]*)<\/title>/g)];
  expect(titles).toHaveLength(1);
  return unescapeHtml(titles[0]![1]!);
}

function canonicalOf(html: string): string | undefined {
  const match = /<link rel="canonical" href="([^"]*)">/.exec(html);
  return match ? unescapeHtml(match[1]!) : undefined;
}

/** The text of each `<script type="…">` data block of that type. */
function dataBlocks(html: string, type: string): string[] {
  return [...html.matchAll(new RegExp(`<script type="${type}"[^>]*>([\\s\\S]*?)</script>`, 'g'))].map((match) => match[1]!);
}

/** The text of the state block the app hydrates from. */
function stateBlockOf(html: string): string {
  return /<script type="application\/json" id="catalogue-state">([\s\S]*?)<\/script>/.exec(html)![1]!;
}

async function responseCacheAnswers(): Promise<number> {
  const metric = await site!.metrics.registry.getSingleMetric('http_response_cache_answers_total')?.get();
  return metric?.values[0]?.value ?? 0;
}

describe('page statuses', () => {
  it.each([
    ['/', 200],
    ['/products', 200],
    ['/products?q=mens&sort=priceLowHigh', 200],
    ['/products?category=jewelery&q=gold&sort=nameAZ', 200],
    ['/products?category=home+%26+garden%2Foutdoor+%F0%9F%8F%95%EF%B8%8F', 200],
    ['/products?category=', 200],
    ['/products?category=furniture', 404],
    ['/products?category=Jewelery', 404],
    ['/products/', 200],
    ['/productdetails/1', 200],
    ['/productdetails/007', 200],
    ['/productdetails/9999', 404],
    ['/productdetails/abc', 400],
    ['/productdetails/1.5', 400],
    ['/productdetails/-1', 400],
    ['/productdetails/%E0%A4%A', 400],
    ['/no/such/page', 404],
    ['/productdetails', 404],
    ['/productdetails/1/extra', 404],
    ['/index.html', 404],
    ['/assets/missing.js', 404],
  ])('%s answers %d with a rendered HTML page', async (path, status) => {
    await start();
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.text).toMatch(/^<!doctype html>/);
    expect(response.text).toContain('<main data-url=');
    expect(response.text).not.toContain('<!--app-head-->');
  });

  it('asks the upstream nothing for an invalid id', async () => {
    await start();
    for (const path of ['/productdetails/abc', '/productdetails/1.5', '/productdetails/1e3']) {
      expect((await get(path)).status).toBe(400);
    }
    expect(site!.upstream.requestCount()).toBe(0);
  });

  it('answers 503 with Retry-After, and still the page with its error, when the upstream fails and nothing is cached', async () => {
    await start();
    await site!.upstream.setMode('status500');
    for (const path of ['/', '/products?q=bag', '/productdetails/1']) {
      const response = await get(path);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('30');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.text).toContain('<p role="alert">error</p>');
      expect(titleOf(response.text)).toMatch(/ · Catalogue$/);
    }
  });

  it('keeps serving a page from a stale copy while the upstream fails', async () => {
    await start();
    expect((await get('/products')).status).toBe(200);
    await site!.upstream.setMode('status500');
    site!.clock.advanceSeconds(site!.config.cacheTtlSeconds + 1);
    const stale = await get('/products');
    expect(stale.status).toBe(200);
    expect(stale.headers['x-cache']).toBe('STALE');
    expect(stale.text).toContain(FIXTURE_PRODUCTS[0]!.title.replace(/&/g, '&amp;'));
  });

  it('sends error pages no-store and never from the page cache', async () => {
    await start();
    for (const path of ['/nope', '/productdetails/abc', '/productdetails/9999']) {
      const first = await get(path);
      const second = await get(path);
      expect(second.status).toBe(first.status);
      expect(second.headers['cache-control']).toBe('no-store');
      expect(second.headers['x-cache']).toBeUndefined();
    }
    expect(await responseCacheAnswers()).toBe(0);
  });

  it('answers 503 with a plain message while the client is not built', async () => {
    await start({ withoutClient: true });
    for (const path of ['/', '/products', '/productdetails/1', '/nope']) {
      const response = await get(path);
      expect(response.status).toBe(503);
      expect(response.text).toContain('npm run build');
    }
  });
});

describe('the head of each page', () => {
  it('describes the home page, with its first product as the preview picture and the preloaded photo', async () => {
    await start({ config: { PUBLIC_URL: 'https://shop.example.com' } });
    const { text } = await get('/');
    expect(titleOf(text)).toBe('Products Gallery · Catalogue');
    expect(metaContents(text, 'description')).toHaveLength(1);
    expect(canonicalOf(text)).toBe('https://shop.example.com/');
    expect(metaContents(text, 'og:type')).toEqual(['website']);
    expect(metaContents(text, 'og:title')).toEqual(['Products Gallery · Catalogue']);
    expect(metaContents(text, 'og:url')).toEqual(['https://shop.example.com/']);
    expect(metaContents(text, 'og:image')).toEqual(['https://shop.example.com/api/products/1/image?w=1280']);
    expect(metaContents(text, 'twitter:card')).toEqual(['summary_large_image']);
    expect(metaContents(text, 'robots')).toEqual([]);
    expect(text).toContain('imagesrcset="/api/products/1/image?w=160 160w, ');
    expect(text).not.toContain('The bare app.');
    // The app's scripts are listed for the entry to preload once the lead photo is painted, not linked.
    expect(text).toContain('<script type="application/json" id="app-chunks">["/assets/index-abc123.js"]</script>');
    expect(text).not.toContain('modulepreload');
    expect(text).toContain('<style data-styled="active">');
    expect(dataBlocks(text, 'application/ld\\+json')).toEqual([]);
  });

  it('describes a search: the description names it, the canonical keeps it and drops the sort, the preload is the first match', async () => {
    await start({ config: { PUBLIC_URL: 'https://shop.example.com' } });
    const { text } = await get('/products?q=+mens&sort=priceHighLow');
    expect(titleOf(text)).toBe('Our Products · Catalogue');
    expect(metaContents(text, 'description')).toEqual(['Products whose title contains “mens”, with their prices and ratings.']);
    expect(canonicalOf(text)).toBe('https://shop.example.com/products?q=mens');
    const priciestMens = FIXTURE_PRODUCTS.filter((product) => product.title.toLowerCase().includes('mens')).sort(
      (a, b) => b.price - a.price,
    )[0]!;
    expect(text).toContain(`imagesrcset="/api/products/${priciestMens.id}/image?w=160 160w`);
    expect(text).toMatch(/imagesizes="\(min-width: 1200px\) 204px, /);
  });

  it('describes a category: its name first in the title, the description names it, the canonical keeps it with the search', async () => {
    await start({ config: { PUBLIC_URL: 'https://shop.example.com' } });
    const { status, text, headers } = await get('/products?category=jewelery&q=gold&sort=priceLowHigh');
    expect(status).toBe(200);
    expect(headers['cache-control']).toMatch(/^public/);
    expect(titleOf(text)).toBe('jewelery · Our Products · Catalogue');
    expect(metaContents(text, 'og:title')).toEqual(['jewelery · Our Products · Catalogue']);
    expect(metaContents(text, 'description')).toEqual([
      'Products in the category “jewelery” whose title contains “gold”, with their prices and ratings.',
    ]);
    expect(canonicalOf(text)).toBe('https://shop.example.com/products?category=jewelery&q=gold');
    expect(metaContents(text, 'og:url')).toEqual(['https://shop.example.com/products?category=jewelery&q=gold']);
    expect(metaContents(text, 'robots')).toEqual([]);
    // The preloaded photo is the first card as filtered by category and text, then sorted.
    const cheapestGold = FIXTURE_PRODUCTS.filter((product) => product.category === 'jewelery' && /gold/i.test(product.title)).sort(
      (a, b) => a.price - b.price,
    )[0]!;
    expect(text).toContain(`imagesrcset="/api/products/${cheapestGold.id}/image?w=160 160w`);
  });

  it('answers an unknown category 404, noindex, no-store and not kept, with the list the app shows as empty', async () => {
    await start({ config: { PUBLIC_URL: 'https://shop.example.com' } });
    for (let round = 0; round < 2; round += 1) {
      const { status, text, headers } = await get('/products?category=furniture');
      expect(status).toBe(404);
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['x-cache']).toBeUndefined();
      expect(metaContents(text, 'robots')).toEqual(['noindex']);
      expect(canonicalOf(text)).toBeUndefined();
      expect(metaContents(text, 'og:url')).toEqual([]);
      expect(titleOf(text)).toBe('furniture · Our Products · Catalogue');
      // The state carries the list, so the app hydrates the page as it was rendered: the category with no products.
      const state = JSON.parse(stateBlockOf(text)) as unknown;
      expect(JSON.stringify(state)).toContain(JSON.stringify(FIXTURE_PRODUCTS[0]!.title));
    }
    expect(await responseCacheAnswers()).toBe(0);
  });

  it('carries the hostile category names intact and inert through the title, meta tags and canonical', async () => {
    await start({ config: { PUBLIC_URL: 'https://shop.example.com' } });
    for (const product of [FIXTURE_PRODUCTS[18]!, FIXTURE_PRODUCTS[19]!]) {
      const path = `/products?${new URLSearchParams({ category: product.category }).toString()}`;
      const { status, text } = await get(path);
      expect(status).toBe(200);
      expect(titleOf(text)).toBe(`${product.category} · Our Products · Catalogue`);
      expect(metaContents(text, 'description')[0]).toContain(`“${product.category}”`);
      expect(new URL(canonicalOf(text)!).searchParams.get('category')).toBe(product.category);
      expect(canonicalOf(text)).toBe(`https://shop.example.com${path}`);
      expect(text).not.toContain("<script>alert('category')");
      const scripts = [...text.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
      expect(scripts.every((tag) => /type="application\/(json|ld\+json)"/.test(tag))).toBe(true);
      // Kept in the page cache: a spelling the site writes.
      expect((await get(path)).headers['x-cache']).toBe('HIT');
    }
    expect(FIXTURE_PRODUCTS[19]!.category).toContain('<script>');
  });

  it('describes a product: its own title and text, Open Graph product, price, JSON-LD Product with its offer and rating', async () => {
    await start({ config: { PUBLIC_URL: 'https://shop.example.com' } });
    const product = FIXTURE_PRODUCTS[1]!;
    const { text } = await get(`/productdetails/${product.id}`);
    expect(titleOf(text)).toBe(`${product.title} · Catalogue`);
    expect(metaContents(text, 'description')).toEqual([product.description]);
    expect(canonicalOf(text)).toBe(`https://shop.example.com/productdetails/${product.id}`);
    expect(metaContents(text, 'og:type')).toEqual(['product']);
    expect(metaContents(text, 'og:image')).toEqual([`https://shop.example.com/api/products/${product.id}/image?w=1280`]);
    expect(metaContents(text, 'product:price:amount')).toEqual(['22.30']);
    expect(metaContents(text, 'product:price:currency')).toEqual(['USD']);
    expect(text).toMatch(
      /<link rel="preload" as="image" imagesrcset="[^"]+" imagesizes="\(min-width: 1200px\) 420px, [^"]+" fetchpriority="high">/,
    );
    const [jsonLd, ...others] = dataBlocks(text, 'application/ld\\+json');
    expect(others).toEqual([]);
    expect(JSON.parse(jsonLd!)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.title,
      description: product.description,
      image: `https://shop.example.com/api/products/${product.id}/image?w=1280`,
      category: product.category,
      url: `https://shop.example.com/productdetails/${product.id}`,
      offers: {
        '@type': 'Offer',
        price: '22.30',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
        url: `https://shop.example.com/productdetails/${product.id}`,
      },
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.1, ratingCount: 259, bestRating: 5, worstRating: 0 },
    });
  });

  it('leaves aggregateRating out for a product without a rating', async () => {
    await start();
    const unrated = FIXTURE_PRODUCTS.find((product) => product.rating === undefined)!;
    const { text } = await get(`/productdetails/${unrated.id}`);
    const jsonLd = JSON.parse(dataBlocks(text, 'application/ld\\+json')[0]!) as Record<string, unknown>;
    expect(jsonLd).not.toHaveProperty('aggregateRating');
    expect(jsonLd.offers).toMatchObject({ priceCurrency: 'USD' });
  });

  it.each([
    ['/no/such/page', 'Page Not Found · Catalogue'],
    ['/productdetails/abc', 'Invalid Product ID · Catalogue'],
    ['/productdetails/9999', 'Product not found · Catalogue'],
  ])('marks %s noindex, without a canonical URL, JSON-LD or preview picture', async (path, title) => {
    await start();
    const { text } = await get(path);
    expect(titleOf(text)).toBe(title);
    expect(metaContents(text, 'robots')).toEqual(['noindex']);
    expect(canonicalOf(text)).toBeUndefined();
    expect(metaContents(text, 'og:url')).toEqual([]);
    expect(metaContents(text, 'og:image')).toEqual([]);
    expect(metaContents(text, 'twitter:card')).toEqual(['summary']);
    expect(dataBlocks(text, 'application/ld\\+json')).toEqual([]);
    expect(text).not.toContain('rel="preload" as="image"');
  });

  it('hands the app its state in a JSON data block it can parse back to the data rendered', async () => {
    await start();
    const { text } = await get('/productdetails/2');
    // Two JSON blocks: the state, and the app's scripts for the entry to preload.
    expect([...text.matchAll(/<script type="application\/json" id="([\w-]+)">/g)].map((match) => match[1])).toEqual([
      'app-chunks',
      'catalogue-state',
    ]);
    const parsed = JSON.parse(stateBlockOf(text)) as { url: string; data: { product: { id: number; image: string } } };
    expect(parsed.url).toBe('/productdetails/2');
    expect(parsed.data.product).toMatchObject({ id: 2, image: '/api/products/2/image' });
  });
});

/**
 * The ids of the related products a page was rendered with and hands the app, from its state block (what the test
 * site's stand-in renderer is given; the app's own markup of them is client/src/entry-server.test.tsx's and the
 * browser tests'); `undefined` when the page has none to show.
 */
function relatedIds(html: string): number[] | undefined {
  const { data } = JSON.parse(stateBlockOf(html)) as { data: { related?: { id: number; image: string }[] } };
  data.related?.forEach(({ id, image }) => expect(image).toBe(`/api/products/${id}/image`));
  return data.related?.map(({ id }) => id);
}

describe('related products on a product page', () => {
  it('renders a product page with up to four other products of its category, in catalogue order', async () => {
    await start();
    const { status, text } = await get('/productdetails/2');
    expect(status).toBe(200);
    // The other three of "men's clothing" (1 to 4), the product itself left out.
    expect(relatedIds(text)).toEqual([1, 3, 4]);
    expect(text).toContain(escape(FIXTURE_PRODUCTS[1]!.title));
    // Read through the catalogue's list: the product's own request, and the list's, once each.
    expect(site!.upstream.requestCount('/products/2')).toBe(1);
    expect(site!.upstream.requestCount('/products')).toBe(1);
  });

  it('keeps four when the category has more, and none for the only product of its category', async () => {
    await start();
    site!.upstream.setProducts(FIXTURE_PRODUCTS.map((product) => (product.id <= 8 ? { ...product, category: 'bags' } : product)));
    expect(relatedIds((await get('/productdetails/6')).text)).toEqual([1, 2, 3, 4]);
    const only = await get('/productdetails/20');
    expect(only.status).toBe(200);
    expect(only.text).toContain(escape(FIXTURE_PRODUCTS[19]!.title));
    expect(relatedIds(only.text)).toEqual([]);
  });

  it('renders a kept product page again once the list refills, though its product is still fresh', async () => {
    await start();
    await get('/');
    site!.clock.advanceSeconds(Math.floor(site!.config.cacheTtlSeconds / 2));
    const before = await get('/productdetails/2');
    expect(relatedIds(before.text)).toEqual([1, 3, 4]);
    expect((await get('/productdetails/2')).body.equals(before.body)).toBe(true);
    // The list goes stale while the product is still fresh; a related product changes upstream.
    site!.upstream.setProducts([{ ...FIXTURE_PRODUCTS[0]!, title: 'A brand new backpack' }, ...FIXTURE_PRODUCTS.slice(1)]);
    site!.clock.advanceSeconds(Math.floor(site!.config.cacheTtlSeconds / 2) + 1);
    const stale = await get('/productdetails/2');
    // As fresh as the staler of the two entries it was made from.
    expect(stale.headers['x-cache']).toBe('STALE');
    expect(stale.body.equals(before.body)).toBe(true);
    await site!.catalogue.settled();
    const refreshed = await get('/productdetails/2');
    expect(refreshed.headers['x-cache']).toBe('HIT');
    expect(refreshed.text).toContain('A brand new backpack');
    expect(site!.upstream.requestCount('/products/2')).toBe(1);
    const answered = await responseCacheAnswers();
    expect((await get('/productdetails/2')).body.equals(refreshed.body)).toBe(true);
    expect(await responseCacheAnswers()).toBe(answered + 1);
  });

  it('still shows the product when the list cannot be had, without related products, and does not keep that page', async () => {
    await start();
    site!.upstream.override('/products', 'status500');
    const { status, text, headers } = await get('/productdetails/2');
    expect(status).toBe(200);
    expect(text).toContain(escape(FIXTURE_PRODUCTS[1]!.title));
    expect(relatedIds(text)).toBeUndefined();
    expect(headers['cache-control']).toBe('no-store');
  });
});

describe('hostile text from the upstream', () => {
  const HOSTILE_TITLE = '</script><script>alert(1)</script>';
  const HOSTILE_DESCRIPTION = '"><img src=x onerror=alert(2)> <!-- & \u2028\u2029 \'';
  const hostile = [
    { ...FIXTURE_PRODUCTS[0]!, title: HOSTILE_TITLE, description: HOSTILE_DESCRIPTION, category: '</title><b>bold</b>' },
    ...FIXTURE_PRODUCTS.slice(1),
  ];

  it.each(['/', '/products?q=%3C%2Fscript', '/productdetails/1'])(
    'stays text in the HTML, meta tags, JSON-LD and state of %s',
    async (path) => {
      await start({ products: hostile });
      const { status, text } = await get(path);
      expect(status).toBe(200);
      // Nothing the upstream wrote became markup: the only script elements are the page's own data blocks.
      expect(text).not.toContain('<script>alert');
      expect(text).not.toContain('<img src=x');
      expect(text).not.toContain('<b>bold</b>');
      const scripts = [...text.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
      expect(scripts.every((tag) => /type="application\/(json|ld\+json)"/.test(tag))).toBe(true);
      for (const block of [...dataBlocks(text, 'application/json'), ...dataBlocks(text, 'application/ld\\+json')]) {
        expect(block).not.toMatch(/[<>&\u2028\u2029]/);
        expect(() => JSON.parse(block) as unknown).not.toThrow();
      }
      const state = JSON.stringify(JSON.parse(stateBlockOf(text)));
      expect(state).toContain(JSON.stringify(HOSTILE_TITLE).slice(1, -1));
      expect(state).toContain(JSON.stringify(HOSTILE_DESCRIPTION).slice(1, -1));
    },
  );

  it('round-trips a hostile product exactly through the title, meta tags and JSON-LD', async () => {
    await start({ products: hostile });
    const { text } = await get('/productdetails/1');
    expect(titleOf(text)).toBe(`${HOSTILE_TITLE} · Catalogue`);
    expect(metaContents(text, 'og:title')).toEqual([`${HOSTILE_TITLE} · Catalogue`]);
    expect(metaContents(text, 'og:image:alt')).toEqual([HOSTILE_TITLE]);
    expect(metaContents(text, 'description')).toEqual([HOSTILE_DESCRIPTION.replace(/\s+/gu, ' ').trim()]);
    const jsonLd = JSON.parse(dataBlocks(text, 'application/ld\\+json')[0]!) as Record<string, unknown>;
    expect(jsonLd).toMatchObject({ name: HOSTILE_TITLE, description: HOSTILE_DESCRIPTION, category: '</title><b>bold</b>' });
  });
});

describe('the public origin of absolute URLs', () => {
  it('takes PUBLIC_URL over whatever the request names', async () => {
    await start({ config: { PUBLIC_URL: 'https://shop.example.com', TRUST_PROXY: 'true' } });
    const { text } = await get('/products', { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http' });
    expect(canonicalOf(text)).toBe('https://shop.example.com/products');
  });

  it('takes the Host header without PUBLIC_URL, normalised, and ignores X-Forwarded-* unless TRUST_PROXY is set', async () => {
    await start();
    const direct = await get('/products', { Host: 'Shop.Example.COM:80' });
    expect(canonicalOf(direct.text)).toBe('http://shop.example.com/products');
    const forged = await get('/products', {
      Host: 'shop.example.com:8080',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'https',
    });
    expect(canonicalOf(forged.text)).toBe('http://shop.example.com:8080/products');
  });

  it('takes the first X-Forwarded-Proto and X-Forwarded-Host with TRUST_PROXY', async () => {
    await start({ config: { TRUST_PROXY: 'true' } });
    const { text } = await get('/productdetails/3', {
      Host: 'internal:3000',
      'X-Forwarded-Host': 'shop.example.com, proxy.internal',
      'X-Forwarded-Proto': 'https, http',
    });
    expect(canonicalOf(text)).toBe('https://shop.example.com/productdetails/3');
    expect(metaContents(text, 'og:image')).toEqual(['https://shop.example.com/api/products/3/image?w=1280']);
  });

  it('keeps one cached page per origin, so one Host never sees another one’s URLs', async () => {
    await start();
    await get('/', { Host: 'a.example' });
    const other = await get('/', { Host: 'b.example' });
    expect(canonicalOf(other.text)).toBe('http://b.example/');
    const again = await get('/', { Host: 'a.example' });
    expect(canonicalOf(again.text)).toBe('http://a.example/');
  });

  it.each(['evil.example"><script>', 'a b', 'example.com:99999', '[::zz]', ''])(
    'answers 400 to the Host %j, never a page naming it',
    async (host) => {
      await start();
      const response = await rawExchangeWithHost(host);
      expect(response).toMatch(/^HTTP\/1\.1 400 /);
      expect(response).not.toContain('<script>');
    },
  );
});

async function rawExchangeWithHost(host: string): Promise<string> {
  const { rawExchange } = await import('@catalogue/testing/raw-http');
  const address = site!.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const response = await rawExchange(address.port, `GET /products HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  return `HTTP/1.1 ${response.status} \r\n${response.body}`;
}

describe('cached pages', () => {
  it('answers a repeated page from the response cache: X-Cache HIT, the same bytes, an ETag and 304', async () => {
    await start();
    const first = await get('/products?q=mens&sort=nameAZ');
    expect(first.headers['x-cache']).toBe('MISS');
    const second = await get('/products?q=mens&sort=nameAZ');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['cache-control']).toMatch(/^public, max-age=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/);
    expect(await responseCacheAnswers()).toBe(1);
    const revalidated = await get('/products?q=mens&sort=nameAZ', { 'If-None-Match': first.headers.etag as string });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toHaveLength(0);
  });

  it('keeps one page for the spellings of one route the site writes, whatever the order of its parameters', async () => {
    await start();
    const first = await get('/products?q=mens&sort=nameAZ');
    const reordered = await get('/products?sort=nameAZ&q=mens');
    expect([first.headers['x-cache'], reordered.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(reordered.body.equals(first.body)).toBe(true);
    // Each spelling is kept by the response cache once Express has answered it (it keeps by the URL as received).
    expect(await responseCacheAnswers()).toBe(0);
    expect((await get('/products?sort=nameAZ&q=mens')).body.equals(first.body)).toBe(true);
    expect(await responseCacheAnswers()).toBe(1);
  });

  it('answers HEAD with the headers of GET and no body, from the page cache', async () => {
    await start();
    const full = await get('/productdetails/6');
    for (let repeat = 0; repeat < 2; repeat++) {
      const head = await new Promise<RawResponse>((resolve, reject) => {
        const address = site!.server.address() as { port: number };
        const req = httpRequest({ host: '127.0.0.1', port: address.port, path: '/productdetails/6', method: 'HEAD' }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(head.status).toBe(200);
      expect(head.headers['x-cache']).toBe('HIT');
      expect(head.headers['content-length']).toBe(full.headers['content-length']);
      expect(head.headers.etag).toBe(full.headers.etag);
    }
  });

  it('prepares gzip and brotli once, each decoding to the same page', async () => {
    await start();
    const identity = await get('/productdetails/4');
    const gzip = await get('/productdetails/4', { 'Accept-Encoding': 'gzip' });
    const br = await get('/productdetails/4', { 'Accept-Encoding': 'br' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(br.headers.vary).toBe('Accept-Encoding');
  });

  it('renders again once the catalogue refills: never old HTML from a fresh fill', async () => {
    await start();
    const before = await get('/');
    expect(before.text).toContain(escape(FIXTURE_PRODUCTS[0]!.title));
    site!.upstream.setProducts([{ ...FIXTURE_PRODUCTS[0]!, title: 'A brand new first product' }, ...FIXTURE_PRODUCTS.slice(1)]);
    site!.clock.advanceSeconds(site!.config.cacheTtlSeconds + 1);
    const stale = await get('/');
    expect(stale.headers['x-cache']).toBe('STALE');
    expect(stale.body.equals(before.body)).toBe(true);
    await site!.catalogue.settled();
    // The catalogue holds the new list now (a HIT): the page is rendered from it, then answered from the cache.
    const refreshed = await get('/');
    expect(refreshed.headers['x-cache']).toBe('HIT');
    expect(refreshed.text).toContain('A brand new first product');
    expect(refreshed.headers.etag).not.toBe(before.headers.etag);
    expect(await responseCacheAnswers()).toBe(0);
    const hit = await get('/');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.body.equals(refreshed.body)).toBe(true);
    expect(await responseCacheAnswers()).toBe(1);
  });

  it('renders, but does not keep, spellings the site never links to', async () => {
    await start();
    for (const path of ['/products?utm_source=x', '/products?q=a%20b', '/products/', '/productdetails/007']) {
      const first = await get(path);
      const second = await get(path);
      expect(first.status).toBe(200);
      expect(second.body.equals(first.body)).toBe(true);
    }
    expect(await responseCacheAnswers()).toBe(0);
  });

  it('ties a product page to that product’s catalogue entry', async () => {
    await start();
    await get('/productdetails/5');
    expect((await get('/productdetails/5')).headers['x-cache']).toBe('HIT');
    expect(await responseCacheAnswers()).toBe(1);
    expect(site!.upstream.requestCount('/products/5')).toBe(1);
  });
});

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

describe('sitemap.xml and robots.txt', () => {
  it('lists home, the products page, each category’s list and every product page, absolute, with the catalogue fill as lastmod', async () => {
    await start({ config: { PUBLIC_URL: 'https://shop.example.com' } });
    site!.clock.advanceSeconds(7);
    const filledAt = new Date(site!.clock.now()).toISOString();
    const response = await get('/sitemap.xml');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = [...response.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual([
      'https://shop.example.com/',
      'https://shop.example.com/products',
      ...[...new Set(FIXTURE_PRODUCTS.map((product) => product.category))].map(
        (category) => `https://shop.example.com/products?${escape(new URLSearchParams({ category }).toString())}`,
      ),
      ...FIXTURE_PRODUCTS.map((product) => `https://shop.example.com/productdetails/${product.id}`),
    ]);
    // Each category's list is a page that answers 200.
    for (const loc of locs.slice(2, -FIXTURE_PRODUCTS.length)) {
      const url = new URL(loc!.replace(/&amp;/g, '&').replace(/&#39;/g, "'"));
      expect((await get(url.pathname + url.search)).status).toBe(200);
    }
    site!.clock.advanceSeconds(30);
    const later = await get('/sitemap.xml');
    expect(new Set([...later.text.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((match) => match[1]))).toEqual(new Set([filledAt]));
  });

  it('answers 503 with Retry-After when the catalogue cannot be had, and 404 for a numbered file that does not exist', async () => {
    await start();
    await site!.upstream.setMode('status500');
    const response = await get('/sitemap.xml');
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    await site!.upstream.setMode('normal');
    expect((await get('/sitemap.xml')).status).toBe(200);
    expect((await get('/sitemap-1.xml')).status).toBe(404);
  });

  it('points robots.txt at the sitemap, keeping crawlers off the JSON API but not the photos', async () => {
    await start({ config: { PUBLIC_URL: 'https://shop.example.com' } });
    const response = await get('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.text).toBe(
      'User-agent: *\nDisallow: /api/\nAllow: /api/products/*/image\n\nSitemap: https://shop.example.com/sitemap.xml\n',
    );
  });
});
