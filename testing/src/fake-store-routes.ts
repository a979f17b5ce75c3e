import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { productPhoto } from './photos.js';

/**
 * What the upstream double (upstream-double.ts) answers in its `normal` mode: the Fake Store API's read routes over
 * a set of products, with the validators and `304`s of the real API's Express and of a real image host.
 *
 * `GET /products`, `GET /products/:id` (unknown numeric ids answer `200 null`, and non-numeric ids are handed to
 * `hold`, since the real API hangs on them), `GET /images/<name>.png` (the bytes of TINY_PNG), `GET /photos/<id>.jpg`
 * (product `id`'s photo-like JPEG). Product images given as a path (`/images/1.png`) are served as absolute URLs on
 * `imageOrigin()`; with `photos`, every product gets its photo.
 */
export interface FakeStoreRoutes {
  answer(path: string, req: IncomingMessage, res: ServerResponse): void;
  /** The list's JSON as `GET /products` sends it (the double's mid-body failures send half of it). */
  listBody(): Buffer;
  setProducts(products: readonly unknown[]): void;
  /** Conditional requests answered `304 Not Modified`, on one pathname or on all. */
  notModifiedCount(path?: string): number;
  resetCounts(): void;
}

export interface FakeStoreRoutesOptions {
  products: readonly unknown[];
  photos: boolean;
  /** The origin image paths are made absolute on. */
  imageOrigin: () => string;
  /** Holds a request that the real API would never answer. */
  hold: (path: string, req: IncomingMessage, res: ServerResponse) => void;
}

/** A valid 1×1 transparent PNG, the body of every `/images/<name>.png` the double serves. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** When every image the double serves last changed: its bytes never do (tests change them with `override`). */
const IMAGES_LAST_MODIFIED = 'Wed, 01 Jan 2025 00:00:00 GMT';
const PRODUCT_PATH = /^\/products\/([^/]+)$/;
const IMAGE_PATH = /^\/images\/[A-Za-z0-9_-]+\.png$/;
const PHOTO_PATH = /^\/photos\/([1-9][0-9]{0,5})\.jpg$/;

type Validators = { ETag: string; 'Last-Modified': string };

export function fakeStoreRoutes({ products: initial, photos, imageOrigin, hold }: FakeStoreRoutesOptions): FakeStoreRoutes {
  let products = initial;
  let productsSetAt = new Date();
  const notModified = new Map<string, number>();
  /**
   * The list's JSON, serialised once per set of products: a 50,000-product list is 25 MB, and serialising it on
   * every request would stall the test process's event loop, which the server under test shares in its tests.
   * Its ETag is a hash of its bytes, its Last-Modified when its products were last set, to the second.
   */
  let serialised: { of: readonly unknown[]; body: Buffer; validators: Validators } | undefined;
  function serialisedList(): NonNullable<typeof serialised> {
    if (serialised?.of !== products) {
      const body = Buffer.from(JSON.stringify(products.map(withAbsoluteImage)));
      serialised = { of: products, body, validators: { ETag: etagOf(body), 'Last-Modified': productsSetAt.toUTCString() } };
    }
    return serialised;
  }

  function withAbsoluteImage(product: unknown): unknown {
    if (typeof product !== 'object' || product === null || !('image' in product)) return product;
    const id = idOf(product);
    const image = photos && typeof id === 'number' ? `/photos/${id}.jpg` : product.image;
    return typeof image === 'string' && image.startsWith('/') ? { ...product, image: `${imageOrigin()}${image}` } : product;
  }

  /** A body with its validators, or a 304 when the request names its ETag, as Express's `fresh` answers. */
  function sendWithValidators(
    path: string,
    req: IncomingMessage,
    res: ServerResponse,
    contentType: string,
    body: Buffer,
    validators: Validators,
  ): void {
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === validators.ETag)) {
      notModified.set(path, (notModified.get(path) ?? 0) + 1);
      res.writeHead(304, validators);
      res.end();
      return;
    }
    send(res, 200, contentType, body, validators);
  }

  function sendImage(path: string, req: IncomingMessage, res: ServerResponse, contentType: string, body: Buffer): void {
    sendWithValidators(path, req, res, contentType, body, { ETag: etagOf(body), 'Last-Modified': IMAGES_LAST_MODIFIED });
  }

  return {
    answer(path, req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'Method Not Allowed');
      if (path === '/products') {
        const { body, validators } = serialisedList();
        return sendWithValidators(path, req, res, 'application/json', body, validators);
      }
      const productMatch = PRODUCT_PATH.exec(path);
      if (productMatch) {
        const rawId = productMatch[1] ?? '';
        // The real API hangs on ids that are not numbers; the server must never forward such ids.
        if (!/^[0-9]+$/.test(rawId)) return hold(path, req, res);
        const product = products.find((candidate) => idOf(candidate) === Number(rawId));
        return send(res, 200, 'application/json', JSON.stringify(product === undefined ? null : withAbsoluteImage(product)));
      }
      if (IMAGE_PATH.test(path)) return sendImage(path, req, res, 'image/png', TINY_PNG);
      const photoMatch = PHOTO_PATH.exec(path);
      if (photoMatch) {
        productPhoto(Number(photoMatch[1])).then(
          (photo) => sendImage(path, req, res, 'image/jpeg', photo),
          () => send(res, 500, 'text/plain', 'Internal Server Error'),
        );
        return;
      }
      send(res, 404, 'text/plain', 'Not Found');
    },
    listBody: () => serialisedList().body,
    setProducts(next) {
      products = next;
      productsSetAt = new Date();
    },
    notModifiedCount(path) {
      if (path !== undefined) return notModified.get(path) ?? 0;
      let total = 0;
      for (const count of notModified.values()) total += count;
      return total;
    },
    resetCounts() {
      notModified.clear();
    },
  };
}

const etagOf = (body: Buffer) => `"${createHash('sha1').update(body).digest('hex')}"`;

function idOf(product: unknown): unknown {
  return typeof product === 'object' && product !== null && 'id' in product ? product.id : undefined;
}

export function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...headers, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
