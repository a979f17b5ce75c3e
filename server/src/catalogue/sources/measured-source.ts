import { Histogram, type Registry } from 'prom-client';
import { type ProductSource, UpstreamError } from './product-source.js';

type UpstreamOperation = 'list' | 'product' | 'image';
type UpstreamOutcome = 'ok' | 'not_found' | 'error' | 'timeout';

/**
 * Wraps a source so that every call it makes is counted and timed in `catalogue_upstream_call_duration_seconds`,
 * whatever its outcome.
 */
export function measuredSource(source: ProductSource, registry: Registry): ProductSource {
  const calls = new Histogram({
    name: 'catalogue_upstream_call_duration_seconds',
    help: 'Calls to the product source by operation and outcome (ok, not_found, error, timeout), with their latency',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  async function measure<T>(operation: UpstreamOperation, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const record = (outcome: UpstreamOutcome) => calls.observe({ operation, outcome }, (performance.now() - started) / 1000);
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
    listProducts: (held) => measure('list', () => source.listProducts(held)),
    listFromCopy: (json) => source.listFromCopy(json),
    getProduct: (id) => measure('product', () => source.getProduct(id)),
    getImage: (location, validators) => measure('image', () => source.getImage(location, validators)),
    ...(source.close && { close: () => source.close?.() ?? Promise.resolve() }),
  };
}
