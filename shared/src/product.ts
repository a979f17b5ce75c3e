import { z } from 'zod';

/**
 * The product, defined once: these schemas validate what the server caches (catalogue/upstream/product-schema.ts), give the
 * TypeScript types everyone uses, and become the OpenAPI document's schemas (server/src/openapi/openapi-document.ts, through
 * `z.toJSONSchema`). The browser app imports only the types (ESLint holds it to `import type`), so zod stays out
 * of its bundle.
 */

export const ratingSchema = z
  .object({
    rate: z.number().finite().meta({ description: 'The average rating, 0 to 5 at the Fake Store.' }),
    count: z.number().finite().meta({ description: 'How many ratings (a whole number at the Fake Store).' }),
  })
  .meta({ description: 'Missing where the upstream sends none.' });

/**
 * The shape a product must have before the server caches or serves it, applied to upstream responses and to the
 * embedded catalogue alike: neither is trusted. Unknown extra fields are dropped (zod's default `strip`), so nothing
 * the upstream adds leaks to clients unchecked; `rating` may be missing; any string is a title, however long.
 */
export const productSchema = z
  .object({
    id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    title: z.string(),
    price: z.number().finite().meta({ description: 'In US dollars.' }),
    description: z.string(),
    category: z.string().meta({ description: 'A name `/products/categories` lists.' }),
    image: z.string(),
    rating: ratingSchema.optional(),
  })
  .meta({ description: 'A product in the Fake Store’s shape, as a source sends it.' });

/** The image route a served product names instead of the upstream's URL (routes.ts, `productImagePath`). */
const PRODUCT_IMAGE_PATH = /^\/api\/products\/[0-9]+\/image$/;

/** A product as this server answers it: the upstream's, with `image` rewritten to this origin's image route. */
export const publicProductSchema = productSchema
  .extend({
    image: z.string().regex(PRODUCT_IMAGE_PATH).meta({
      description: 'This origin’s image route for the product (`/api/products/{id}/image`), not the upstream’s URL.',
    }),
  })
  .meta({ description: 'A product in the Fake Store’s shape, as the upstream sends it except `image`.' });

/** A product as the catalogue serves it (Fake Store shape). `rating` may be missing upstream. */
export type Product = z.output<typeof productSchema>;

export type ProductRating = z.output<typeof ratingSchema>;

/** The category names `/api/products/categories` answers: each once. */
export const categoryNamesSchema = z.array(z.string()).meta({ uniqueItems: true });

/** Every error the API answers: `{"error": "<message>"}`, the message for a person to read. */
export const apiErrorSchema = z.object({
  error: z.string().min(1).meta({ description: 'What went wrong, for a person to read.' }),
});
