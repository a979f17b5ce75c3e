/**
 * What went wrong behind a route, as the product source tells it: nothing there, the source failed, or the source was
 * too slow. The HTTP layer maps each to a status (http/failure-answers.ts); declared here so that the catalogue,
 * whose errors say it, never imports the HTTP layer.
 */
export type Failure = 'not-found' | 'unavailable' | 'timed-out';

/**
 * An error that says which Failure it is. The catalogue's errors (ProductNotFoundError, UpstreamError) extend it,
 * so the HTTP layer maps them to statuses without knowing the catalogue.
 */
export abstract class FailureError extends Error {
  abstract readonly failure: Failure;
}
