import { type Product, productSchema } from '@catalogue/shared/product';
import type { z } from 'zod';

/**
 * The shape a product must have before the server caches or serves it is the shared one (shared/src/product.ts),
 * so the validation, the type and the OpenAPI document's schema cannot drift apart.
 */
export { productSchema };

/** A one-line summary of why a value is not a product, for logs. */
export function describeProductIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/**
 * The products of a list's shared copy (JSON another replica stored, docs/scaling.md), or `undefined` when it is not
 * a list of valid products: a copy is all or nothing, as the source's value it was made from was validated already.
 */
export function productsOfCopy(json: Uint8Array): Product[] | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(raw)) return undefined;
  const products: Product[] = [];
  for (const item of raw) {
    const parsed = productSchema.safeParse(item);
    if (!parsed.success) return undefined;
    products.push(parsed.data);
  }
  return products;
}
