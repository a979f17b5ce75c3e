// The bench's upstreams: the one upstream test double (the server tests' and the browser suite's) serving a
// generated catalogue of `count` products, the same bytes on every run and machine, or the fixture products with
// their photos. Node loads both from the testing workspace's built `dist`, so import this module only after
// `npm run build`.
import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import { startUpstreamStub } from '@catalogue/testing/upstream-double';

/**
 * Starts the upstream on 127.0.0.1, an ephemeral port. Resolves with `{ url, products, change(), notModified(),
 * close() }`: `change(n)` serves the list with its first product's price moved by `n` cents (another ETag, the same
 * size), so a refill downloads it again; `notModified()` counts the list's `304`s, `listRequests()` its requests.
 */
export async function startUpstream(count) {
  const products = generateCatalogue(count);
  const double = await startUpstreamStub({ products });
  return {
    url: double.url,
    products,
    change: (n) =>
      double.setProducts(products.map((product, index) => (index === 0 ? { ...product, price: product.price + n / 100 } : product))),
    notModified: () => double.notModifiedCount('/products'),
    listRequests: () => double.requestCount('/products'),
    close: () => double.close(),
  };
}

/** The 20 fixture products with their photos (testing/src/photos.ts: JPEGs of 370–1,049 × 333–1,500 px). */
export const startPhotoUpstream = () => startUpstreamStub({ photos: true });
