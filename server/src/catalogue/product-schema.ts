import type { Product } from '@catalogue/shared/product';
import { z } from 'zod';

/**
 * The shape a product must have before the server caches or serves it, applied to upstream answers and to
 * the embedded catalogue alike: neither is trusted. Unknown extra fields are dropped (zod's default `strip`),
 * so nothing the upstream adds leaks to clients unchecked.
 */
export const productSchema = z.object({
  id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  title: z.string(),
  price: z.number().finite(),
  description: z.string(),
  category: z.string(),
  image: z.string(),
  rating: z.object({ rate: z.number().finite(), count: z.number().finite() }).optional(),
}) satisfies z.ZodType<Product>;

/** A one-line summary of why a value is not a product, for logs. */
export function describeProductIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}
