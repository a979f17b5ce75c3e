/**
 * The messages the pages show, which the server's errors share: what the browser's bundle carries (MESSAGES holds
 * them too, with the server's own).
 */
export const PAGE_MESSAGES = {
  productNotFound: 'Product not found',
  invalidProductId: 'Invalid Product ID',
  noProductsFound: 'No products found.',
  pageNotFound: 'Page Not Found',
  pageNotFoundDetail: 'The page you are looking for doesn’t exist or has been moved.',
} as const;

/** Every user-facing message, written once so the server's errors and the pages' texts cannot drift apart. */
export const MESSAGES = {
  ...PAGE_MESSAGES,
  invalidImageWidth: 'Invalid image width',
  notFound: 'Not found',
  catalogueUnavailable: 'The product catalogue is unavailable right now',
  catalogueTimeout: 'The product catalogue took too long to answer',
  tooManyRequests: 'Too many requests, please slow down',
  methodNotAllowed: 'Method not allowed',
  internalError: 'Internal server error',
} as const;
