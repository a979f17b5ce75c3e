import type { Product } from '@catalogue/shared/product';
import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../../logger.js';
import type { CatalogueList } from '../list/catalogue-list.js';
import { createListFills, FILL_SILENT_MIN_MS } from '../list/fills/list-fills.js';
import { describeProductIssues, productSchema } from '../upstream/product-schema.js';
import { IMAGE_NOT_MODIFIED, type ProductImage, type ProductSource, UpstreamError } from './product-source.js';
import type { UpstreamValidators } from '../upstream/upstream-validators.js';
import { conditionalHeaders, createUpstreamClient, isSuccess, validatorsOf } from '../upstream/upstream-request.js';

export interface HttpSourceOptions {
  /** Base URL without a trailing slash; `/products` and `/products/{id}` are appended. */
  baseUrl: string;
  timeoutMs: number;
  /** IMAGE_MAX_BYTES: a bigger image is refused, and its download cut as soon as it passes this size. */
  maxImageBytes?: number;
  /** IMAGE_HOSTS: origins images may come from besides the upstream's own (`baseUrl`'s). Default: none. */
  imageHosts?: readonly string[];
  /** UPSTREAM_MAX_BYTES: a bigger JSON body (the list) is a failure, its download cut as soon as it passes this size. */
  maxJsonBytes?: number;
  logger: Logger;
  /** The app's metrics registry: the list's fills count their processes' deaths there, and its refills their revalidations. */
  registry?: Registry;
  /** CATALOGUE_DATA_DIR: where the list's files are written; null: the OS temporary folder. */
  dataDir?: string | null;
}

/** The defaults of IMAGE_MAX_BYTES and UPSTREAM_MAX_BYTES, for callers that do not pass their configuration. */
const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_JSON_BYTES = 64 * 1024 * 1024;

/**
 * The Fake-Store-shaped API over HTTP. Nothing it sends is trusted: statuses are interpreted here, bodies are
 * read as text and parsed here (so an HTML error page or truncated JSON is a failure, not data), and every
 * product is checked against the schema. The list, which can be tens of megabytes, is downloaded, parsed, checked
 * and written into a new SQLite file in a process of its own (fills/list-fills.ts): a fill never stalls the
 * answers served meanwhile, and the server's process never holds the products.
 */
export function createHttpSource({
  baseUrl,
  timeoutMs,
  maxImageBytes = DEFAULT_MAX_IMAGE_BYTES,
  maxJsonBytes = DEFAULT_MAX_JSON_BYTES,
  imageHosts = [],
  logger,
  registry,
  dataDir = null,
}: HttpSourceOptions): ProductSource {
  const fills = createListFills({ logger, dataDir, silentMaxMs: Math.max(timeoutMs, FILL_SILENT_MIN_MS), ...(registry && { registry }) });
  const jsonLimit = { bytes: maxJsonBytes, setting: 'UPSTREAM_MAX_BYTES' } as const;
  // The upstream names image URLs, and nothing it says is trusted: fetched as they are, they would let it point
  // this server at any address it can reach (an internal service on its own network). Images come only from
  // these origins, directly or through redirects that stay among them.
  const imageOrigins = new Set([new URL(baseUrl).origin, ...imageHosts.map((host) => new URL(host).origin)]);

  const client = createUpstreamClient(timeoutMs);
  const revalidations = new Counter({
    name: 'catalogue_list_revalidations_total',
    help: 'Refills of the list that asked the upstream whether it changed, by outcome: not_modified (a 304: the list held is kept, nothing downloaded or written) or modified (downloaded once and filled again)',
    labelNames: ['outcome'] as const,
    registers: registry === undefined ? [] : [registry],
  });

  async function getJson(path: string): Promise<{ status: number; body: unknown }> {
    const url = `${baseUrl}${path}`;
    const response = await client.get(url, 'text', jsonLimit);
    const text = typeof response.data === 'string' ? response.data.trim() : '';
    if (!isSuccess(response) || text === '') return { status: response.status, body: undefined };
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch (error) {
      throw new UpstreamError(`${url} answered ${response.status} with a body that is not JSON`, { cause: error });
    }
  }

  return {
    name: 'http',

    async listProducts(held?: CatalogueList): Promise<CatalogueList> {
      const url = `${baseUrl}/products`;
      // With a list held, the fill asks whether it changed: a 304 is the list held, fresh again (nothing downloaded,
      // nothing written); a 200 is the new list, downloaded once.
      const validators = held?.validators;
      const filled = await fills.fill({
        url,
        timeoutMs,
        maxBytes: maxJsonBytes,
        refresh: held !== undefined,
        ...(validators && { validators }),
      });
      if (!filled.ok) throw new UpstreamError(filled.message, { timedOut: filled.timedOut });
      if (validators !== undefined) revalidations.inc({ outcome: 'notModified' in filled ? 'not_modified' : 'modified' });
      if ('notModified' in filled) {
        held!.hold();
        return held!;
      }
      for (const { index, issues } of filled.dropped) logger.warn({ index, issues }, 'Dropped an upstream product of the wrong shape');
      return filled.list;
    },

    async listFromCopy(json) {
      const loaded = await fills.load(json);
      return loaded.ok ? loaded.list : undefined;
    },

    async getProduct(id: number): Promise<Product | null> {
      const path = `/products/${id}`;
      const { status, body } = await getJson(path);
      if (status === 404) return null;
      if (status < 200 || status > 299) throw new UpstreamError(`${baseUrl}${path} answered ${status}`);
      // The Fake Store API responds to unknown ids with 200 and `null` or an empty body.
      if (body === undefined || body === null) return null;
      if (typeof body !== 'object' || Array.isArray(body)) throw new UpstreamError(`${baseUrl}${path} did not answer an object`);
      if (!('id' in body) || body.id === null || body.id === undefined) return null;
      const parsed = productSchema.safeParse(body);
      if (!parsed.success) {
        throw new UpstreamError(`${baseUrl}${path} answered a product of the wrong shape: ${describeProductIssues(parsed.error)}`);
      }
      // Caching another product under this id would serve the wrong page until it expired.
      if (parsed.data.id !== id) throw new UpstreamError(`${baseUrl}${path} answered product ${parsed.data.id}`);
      return parsed.data;
    },

    async getImage(location: string, validators?: UpstreamValidators): Promise<ProductImage | typeof IMAGE_NOT_MODIFIED> {
      const url = resolveImageUrl(location, baseUrl);
      if (!imageOrigins.has(new URL(url).origin)) throw new UpstreamError(`the image location ${url} ${NOT_AN_IMAGE_HOST}`);
      let refusedRedirect: string | undefined;
      const response = await client
        .get(
          url,
          'arraybuffer',
          { bytes: maxImageBytes, setting: 'IMAGE_MAX_BYTES' },
          {
            headers: conditionalHeaders(validators),
            // Called before each redirect is followed; throwing cancels it, so the other host is never contacted.
            beforeRedirect: (options) => {
              const next = new URL(String(options.href));
              if (imageOrigins.has(next.origin)) return;
              refusedRedirect = next.href;
              throw new Error(`redirect to ${next.href} refused`);
            },
          },
        )
        .catch((error: unknown) => {
          throw refusedRedirect === undefined
            ? error
            : new UpstreamError(`${url} redirected to ${refusedRedirect}, which ${NOT_AN_IMAGE_HOST}`);
        });
      if (response.status === 304 && validators !== undefined) return IMAGE_NOT_MODIFIED;
      if (!isSuccess(response)) throw new UpstreamError(`${url} answered ${response.status}`);
      const contentType = String(response.headers['content-type'] ?? '');
      // Passing anything else through would let the upstream put, say, an HTML page on this site's origin.
      if (!/^image\//i.test(contentType)) throw new UpstreamError(`${url} answered ${JSON.stringify(contentType)}, not an image`);
      const sent = validatorsOf(response);
      return { body: Buffer.from(response.data as ArrayBuffer), contentType, ...(sent && { validators: sent }) };
    },

    close: () => fills.close(),
  };
}

function resolveImageUrl(location: string, baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(location, `${baseUrl}/`);
  } catch (error) {
    throw new UpstreamError(`the image location ${JSON.stringify(location)} is not a URL`, { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UpstreamError(`the image location ${JSON.stringify(location)} is not an http(s) URL`);
  }
  return url.href;
}

const NOT_AN_IMAGE_HOST = "is neither on the upstream's origin nor in IMAGE_HOSTS";
