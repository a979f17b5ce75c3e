import type { Product } from '@catalogue/shared/product';
import { FailureError } from '../../outcomes/failure.js';
import { UpstreamError } from '../upstream/upstream-error.js';
import type { CatalogueList } from '../list/catalogue-list.js';
import type { UpstreamValidators } from '../upstream/upstream-validators.js';

// A source's failures are the HTTP client's, whichever source it is: the embedded one fails the same way.
export { UpstreamError };

/** Image bytes as a source holds them, with the content type to send. */
export interface ProductImage {
  body: Buffer;
  contentType: string;
  /** The source's own validators for these bytes, when it gave any: what a later conditional request sends. */
  validators?: UpstreamValidators;
}

/** The source confirmed that the image has not changed since the validators it was sent (a 304). */
export const IMAGE_NOT_MODIFIED = 'not-modified';

/**
 * Where products come from: the external Fake-Store-shaped API over HTTP, or the catalogue bundled with the
 * server. Products returned here are validated and still carry the source's own `image` location; the
 * catalogue rewrites it for clients.
 *
 * Failures are thrown as the errors below, never as anything a client could see raw.
 */
export interface ProductSource {
  /** A short name for logs and metrics: 'http' or 'embedded'. */
  readonly name: string;
  /**
   * The whole list, held where its size says (catalogue-list.ts), its public body made with it, handed over with
   * one hold. `held`: the list the cache holds, if any, which the source may find unchanged and hand over again (a
   * 304 to its validators) instead of filling a new one.
   */
  listProducts(held?: CatalogueList): Promise<CatalogueList>;
  /**
   * The list from the JSON of a copy another replica shared (docs/scaling.md), made as listProducts makes it;
   * `undefined` when the copy is not a valid list.
   */
  listFromCopy(json: Buffer): Promise<CatalogueList | undefined>;
  /** Resolves `null` when the source has no such product (404, `null`, empty body, object without id). */
  getProduct(id: number): Promise<Product | null>;
  /**
   * Fetches the image at a location this source gave in a product's `image` field. With `validators` (from an
   * earlier response) the request is conditional, and a source that can tell may return IMAGE_NOT_MODIFIED.
   */
  getImage(location: string, validators?: UpstreamValidators): Promise<ProductImage | typeof IMAGE_NOT_MODIFIED>;
  /** Ends the source's fills and removes its files; the catalogue calls it when it is closed. */
  close?(): Promise<void>;
}

/** The source said definitively that there is no such product. */
export class ProductNotFoundError extends FailureError {
  readonly failure = 'not-found';

  constructor(readonly productId: number) {
    super(`Product ${productId} not found`);
    this.name = 'ProductNotFoundError';
  }
}
