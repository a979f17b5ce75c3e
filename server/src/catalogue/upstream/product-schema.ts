import { productSchema } from '@catalogue/shared/product';
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
