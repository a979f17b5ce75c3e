// The OpenAPI document's examples and schemas (openapi-document.ts): the zod schemas the server validates with, as
// JSON Schema 2020-12 (OpenAPI 3.1's dialect), with examples in the shapes of the fixture catalogue the tests serve.
import { MESSAGES } from '@catalogue/shared/messages';
import { PRODUCTS_PAGE_SIZE, type ProductSearchPage } from '@catalogue/shared/product-paging';
import { MIN_RATINGS, type ProductFacets } from '@catalogue/shared/product-filters';
import { type ProductSuggestions, SUGGESTED_PRODUCTS } from '@catalogue/shared/product-suggestions';
import { apiErrorSchema, categoryNamesSchema, type Product, publicProductSchema, ratingSchema } from '@catalogue/shared/product';
import type { SchemaObject } from 'openapi3-ts/oas31';
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------------
// Examples, in the shapes of the fixture catalogue the tests serve: one product with a rating, one without.

export const EXAMPLE_PRODUCT: Product = {
  id: 1,
  title: 'Fjallraven - Foldsack No. 1 Backpack, Fits 15 Laptops',
  price: 109.95,
  description: 'Your perfect pack for everyday use and walks in the forest. Stash your laptop (up to 15 inches) in the padded sleeve.',
  category: "men's clothing",
  image: '/api/products/1/image',
  rating: { rate: 3.9, count: 120 },
};

export const EXAMPLE_PRODUCT_WITHOUT_RATING: Product = {
  id: 5,
  title: "John Hardy Women's Legends Naga Gold & Silver Dragon Station Chain Bracelet",
  price: 695,
  description: 'From our Legends Collection, the Naga was inspired by the mythical water dragon that protects the ocean.',
  category: 'jewelery',
  image: '/api/products/5/image',
};

export const EXAMPLE_CATEGORIES = ["men's clothing", 'jewelery', 'electronics', "women's clothing", 'home & garden/outdoor 🏕️'];

// ---------------------------------------------------------------------------------------------------------------
// Schemas: the zod schemas the server validates with, as JSON Schema 2020-12 (OpenAPI 3.1's dialect).

/**
 * What `/openapi.json` answers, described far enough for a client generator to type it (a bare `{type: object}`
 * would come out as an object with no fields): an OpenAPI 3.1 document, its fields beyond these left open.
 */
const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\.[0-9]+$/),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    servers: z.array(z.looseObject({ url: z.string() })),
    paths: z.record(z.string(), z.looseObject({})),
    components: z.looseObject({}),
  })
  .meta({ description: 'An OpenAPI 3.1 document: this one.' });

/** The schemas, each named by its id in `components.schemas`; a schema used inside another becomes a `$ref`. */
const schemaRegistry = z.registry<{ id: string }>();
const documentedProduct = publicProductSchema.meta({ examples: [EXAMPLE_PRODUCT, EXAMPLE_PRODUCT_WITHOUT_RATING] });
schemaRegistry.add(documentedProduct, { id: 'Product' });
schemaRegistry.add(ratingSchema, { id: 'Rating' });
schemaRegistry.add(z.array(documentedProduct), { id: 'Products' });
/** The counts beside a search's page (shared/src/product-filters.ts), tied to their type. */
const facetsSchema = z
  .object({
    categories: z
      .array(z.object({ name: z.string(), count: z.int().nonnegative() }))
      .describe(
        'Every category, in catalogue order, with how many products the search and the price and rating filters leave in it, whichever category is asked for.',
      ),
    ratings: z
      .array(z.object({ min: z.union(MIN_RATINGS.map((min) => z.literal(min))), count: z.int().nonnegative() }))
      .describe(
        'Each least rating from 4 down to 1, with how many products the search, the category and the price range leave rated at least that.',
      ),
    price: z
      .object({ min: z.number(), max: z.number() })
      .nullable()
      .describe(
        'The lowest and highest price among the products the search, the category and the least rating leave; null when they leave none.',
      ),
  })
  .describe(
    'The counts for the search and filters, each leaving out its own kind of filter; the same for every page and sort.',
  ) satisfies z.ZodType<ProductFacets>;
schemaRegistry.add(facetsSchema, { id: 'ProductFacets' });

/** What `/products/search` answers (shared/src/product-paging.ts), tied to its type. */
const searchPageSchema = z.object({
  items: z.array(documentedProduct).describe(`The products of this page, at most \`pageSize\`, in the order asked for.`),
  total: z.int().nonnegative().describe('How many products match in all, over every page.'),
  page: z.int().min(1).describe('This page, from 1.'),
  pageSize: z.literal(PRODUCTS_PAGE_SIZE).describe('Products per page.'),
  catalogueSize: z.int().nonnegative().describe('How many products the whole catalogue holds.'),
  facets: facetsSchema,
}) satisfies z.ZodType<ProductSearchPage>;
schemaRegistry.add(searchPageSchema, { id: 'ProductSearchPage' });
/** What `/products/suggestions` answers (shared/src/product-suggestions.ts), tied to its type. */
const suggestionsSchema = z.object({
  products: z
    .array(documentedProduct)
    .max(SUGGESTED_PRODUCTS)
    .describe('The first products whose titles contain the text, in catalogue order.'),
  categories: z.array(z.string()).describe('Every category whose name contains the text, in catalogue order.'),
}) satisfies z.ZodType<ProductSuggestions>;
schemaRegistry.add(suggestionsSchema, { id: 'ProductSuggestions' });
schemaRegistry.add(categoryNamesSchema.meta({ examples: [EXAMPLE_CATEGORIES] }), { id: 'Categories' });
schemaRegistry.add(apiErrorSchema.meta({ examples: [{ error: MESSAGES.productNotFound }] }), { id: 'Error' });
schemaRegistry.add(openApiDocumentSchema, { id: 'OpenApiDocument' });

/**
 * `z.toJSONSchema` writes each as a document of its own (`$schema`, and an `$id` naming where it will sit); as a
 * component it is neither: the document's `jsonSchemaDialect` names the dialect.
 */
export const SCHEMAS: Record<string, SchemaObject> = Object.fromEntries(
  Object.entries(z.toJSONSchema(schemaRegistry, { uri: (id) => `#/components/schemas/${id}` }).schemas).map(
    ([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema as SchemaObject],
  ),
);
