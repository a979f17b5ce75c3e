import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Product } from '@catalogue/shared/product';
import type { Logger } from '../../logger.js';
import type { CatalogueList } from '../list/catalogue-list.js';
import { createListFills, FILL_SILENT_MIN_MS } from '../list/fills/list-fills.js';
import { describeProductIssues, productSchema } from '../upstream/product-schema.js';
import { type ProductImage, type ProductSource, UpstreamError } from './product-source.js';

/**
 * `server/embedded-catalogue/`, reached the same way from `src/catalogue/sources/` and from `dist/catalogue/sources/`; joined to
 * import.meta.dirname, as Vite rewrites `new URL(…, import.meta.url)` when the client's tests load this in jsdom.
 */
export const EMBEDDED_CATALOGUE_DIR = pathToFileURL(join(import.meta.dirname, '../../../embedded-catalogue/'));

export interface EmbeddedSourceOptions {
  /** The folder holding `products.json` and `images/`; a `file:` URL ending in `/`. */
  directory?: URL;
  logger: Logger;
  /** CATALOGUE_DATA_DIR: where the list's files are written; null: the OS temporary folder. */
  dataDir?: string | null;
}

const CONTENT_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** A bare file name with one of the extensions above: no folders, no `..`, nothing hidden. */
const IMAGE_FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.(svg|png|jpe?g|webp)$/i;

/**
 * The catalogue bundled with the server, so the site works offline. `products.json` is a Fake-Store-shaped array
 * whose `image` fields are bare file names in `images/`. It is read and validated once, on first use, and held in
 * memory for its products and photos; its list is written into a SQLite file as any other source's
 * (fills/list-fills.ts), and found unchanged at every refill: the file does not change under it. A broken
 * file is reported as an UpstreamError like any other source failure.
 */
export function createEmbeddedSource({ directory = EMBEDDED_CATALOGUE_DIR, logger, dataDir = null }: EmbeddedSourceOptions): ProductSource {
  const fills = createListFills({ logger, dataDir, silentMaxMs: FILL_SILENT_MIN_MS });
  let loading: Promise<Map<number, Product>> | undefined;

  function products(): Promise<Map<number, Product>> {
    loading ??= load().catch((error: unknown) => {
      loading = undefined; // a later call may succeed once the file is fixed
      throw error;
    });
    return loading;
  }

  async function load(): Promise<Map<number, Product>> {
    const file = new URL('products.json', directory);
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new UpstreamError(`the embedded catalogue ${file.pathname} could not be read as JSON`, { cause: error });
    }
    if (!Array.isArray(raw)) throw new UpstreamError(`the embedded catalogue ${file.pathname} is not a JSON array`);
    const byId = new Map<number, Product>();
    for (const [index, item] of raw.entries()) {
      const parsed = productSchema.safeParse(item);
      if (parsed.success) byId.set(parsed.data.id, parsed.data);
      else logger.warn({ index, issues: describeProductIssues(parsed.error) }, 'Dropped an embedded product of the wrong shape');
    }
    return byId;
  }

  /** The valid products, as one list's JSON, written into a file by a fill's process. */
  async function fillList(): Promise<CatalogueList> {
    const json = Buffer.from(JSON.stringify([...(await products()).values()]), 'utf8');
    const loaded = await fills.load(json);
    if (!loaded.ok) throw new UpstreamError(`the embedded catalogue could not be filled: ${loaded.message}`);
    return loaded.list;
  }

  return {
    name: 'embedded',

    listProducts(held) {
      // The bundled file does not change while the server runs: the list held is still its list.
      if (held === undefined) return fillList();
      held.hold();
      return Promise.resolve(held);
    },

    async listFromCopy(json) {
      const loaded = await fills.load(json);
      return loaded.ok ? loaded.list : undefined;
    },

    async getProduct(id) {
      return (await products()).get(id) ?? null;
    },

    async getImage(location): Promise<ProductImage> {
      const match = location.includes('..') ? null : IMAGE_FILE_NAME.exec(location);
      const extension = match?.[1]?.toLowerCase();
      const contentType = extension === undefined ? undefined : CONTENT_TYPES[extension];
      if (contentType === undefined) throw new UpstreamError(`the embedded image name ${JSON.stringify(location)} is not allowed`);
      try {
        return { body: await readFile(new URL(`images/${location}`, directory)), contentType };
      } catch (error) {
        throw new UpstreamError(`the embedded image ${location} could not be read`, { cause: error });
      }
    },

    close: () => fills.close(),
  };
}
