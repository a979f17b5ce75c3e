import type { Metrics, UpstreamOperation, UpstreamOutcome } from '../http/metrics.js';
import { type ProductSource, UpstreamError } from './product-source.js';

/** Wraps a source so that every call it makes is counted and timed in the metrics, whatever its outcome. */
export function measuredSource(source: ProductSource, metrics: Metrics): ProductSource {
  async function measure<T>(operation: UpstreamOperation, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const record = (outcome: UpstreamOutcome) => metrics.recordUpstreamCall(operation, outcome, (performance.now() - started) / 1000);
    try {
      const result = await call();
      record(result === null ? 'not_found' : 'ok');
      return result;
    } catch (error) {
      record(error instanceof UpstreamError && error.timedOut ? 'timeout' : 'error');
      throw error;
    }
  }

  return {
    name: source.name,
    listProducts: () => measure('list', () => source.listProducts()),
    listFromCopy: (json) => source.listFromCopy(json),
    getProduct: (id) => measure('product', () => source.getProduct(id)),
    getImage: (location, validators) => measure('image', () => source.getImage(location, validators)),
    ...(source.close && { close: () => source.close?.() ?? Promise.resolve() }),
  };
}
