import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Product } from '@catalogue/shared/product';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { createCapturingLogger } from '../../testing/capturing-logger.js';
import { startTestSite, type TestSite } from '../../testing/test-site.js';
import type { CatalogueList } from '../list/catalogue-list.js';
import { createEmbeddedSource } from './embedded-source.js';
import { IMAGE_NOT_MODIFIED, type ProductImage, UpstreamError } from './product-source.js';
import { bytesOf } from '../../testing/body-bytes.js';

/** The image a plain (unconditional) fetch answers: never "not modified", which only a conditional one may be. */
function fetchedImage(image: ProductImage | typeof IMAGE_NOT_MODIFIED): ProductImage {
  if (image === IMAGE_NOT_MODIFIED) throw new Error('an unconditional fetch answered "not modified"');
  return image;
}

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
const folders: string[] = [];
let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A catalogue folder like server/embedded-catalogue/, holding `products` and one SVG per product. */
function catalogueFolder(products: unknown): URL {
  const folder = mkdtempSync(join(tmpdir(), 'embedded-catalogue-'));
  folders.push(folder);
  mkdirSync(join(folder, 'images'));
  writeFileSync(join(folder, 'products.json'), typeof products === 'string' ? products : JSON.stringify(products));
  writeFileSync(join(folder, 'images', '1.svg'), SVG);
  writeFileSync(join(folder, 'outside.svg'), SVG);
  return pathToFileURL(`${folder}/`);
}

/** The public products of a list, as `GET /api/products` answers them. */
function productsOf(list: CatalogueList): Product[] {
  return JSON.parse(bytesOf(list.body.identity).toString('utf8')) as Product[];
}

const embeddedProducts = FIXTURE_PRODUCTS.slice(0, 3).map((product) => ({ ...product, image: `${product.id}.svg` }));
const silent = createLogger('silent');

describe('the embedded source', () => {
  it('lists and finds the bundled products, validated', async () => {
    const { logger, records } = createCapturingLogger();
    const source = createEmbeddedSource({ directory: catalogueFolder([...embeddedProducts, { id: 'x' }]), logger });

    expect(productsOf(await source.listProducts()).map((product) => product.id)).toEqual([1, 2, 3]);
    expect(await source.getProduct(2)).toEqual(embeddedProducts[1]);
    expect(await source.getProduct(99)).toBeNull();
    expect(records.filter((record) => record.msg === 'Dropped an embedded product of the wrong shape')).toHaveLength(1);
  });

  it('serves an image by bare file name with the content type of its extension', async () => {
    const source = createEmbeddedSource({ directory: catalogueFolder(embeddedProducts), logger: silent });
    const image = fetchedImage(await source.getImage('1.svg'));
    expect(image.contentType).toBe('image/svg+xml');
    expect(image.body.toString('utf8')).toBe(SVG);
  });

  it.each([
    '../outside.svg',
    '..%2foutside.svg',
    'images/1.svg',
    '/etc/passwd',
    '..',
    '1.svg/..',
    '.hidden.svg',
    '1.txt',
    '1.svg\0.png',
    'C:\\x.svg',
  ])('refuses the image name %j', async (name) => {
    const source = createEmbeddedSource({ directory: catalogueFolder(embeddedProducts), logger: silent });
    await expect(source.getImage(name)).rejects.toBeInstanceOf(UpstreamError);
  });

  it('reports a missing image as a source failure', async () => {
    const source = createEmbeddedSource({ directory: catalogueFolder(embeddedProducts), logger: silent });
    await expect(source.getImage('2.svg')).rejects.toBeInstanceOf(UpstreamError);
  });

  it.each([
    ['not json', '{"id": 1'],
    ['not an array', '{"products": []}'],
  ])('fails as a source when the file is %s', async (_name, content) => {
    const source = createEmbeddedSource({ directory: catalogueFolder(content), logger: silent });
    await expect(source.listProducts()).rejects.toBeInstanceOf(UpstreamError);
  });

  it('serves the catalogue over HTTP, images included', async () => {
    site = await startTestSite({ embeddedDirectory: catalogueFolder(embeddedProducts) });
    const list = await request(site.server).get('/api/products').expect(200);
    expect(list.body).toHaveLength(3);
    expect((list.body as Product[])[0]?.image).toBe('/api/products/1/image');
    const image = await request(site.server).get('/api/products/1/image').expect(200);
    expect(image.headers['content-type']).toBe('image/svg+xml');
    await request(site.server).get('/api/products/2/image').expect(502);
    await request(site.server).get('/api/products/42').expect(404);
    expect(site.upstream.requestCount()).toBe(0);
  });
});

describe('the real embedded catalogue (server/embedded-catalogue)', () => {
  it('loads at least 24 products in at least 4 categories, every image present', async () => {
    const { logger, records } = createCapturingLogger();
    const source = createEmbeddedSource({ logger });
    const products = JSON.parse((await (await source.listProducts()).copyJson()).toString('utf8')) as Product[];

    expect(records).toEqual([]);
    expect(products.length).toBeGreaterThanOrEqual(24);
    expect(new Set(products.map((product) => product.category)).size).toBeGreaterThanOrEqual(4);
    for (const product of products) {
      const image = fetchedImage(await source.getImage(product.image));
      expect(image.body.length, product.image).toBeGreaterThan(0);
    }
  });
});
