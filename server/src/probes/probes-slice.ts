import { Router } from 'express';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { probesAllowOnlyGetAndHead } from '../http/method-not-allowed.js';
import type { Slice } from '../http/slice.js';

/**
 * `/healthz` (liveness: the process serves) and `/readyz` (readiness: catalogue requests can be answered, from a
 * cached copy or from the source). Probes must see the truth each time, so neither answer may be cached.
 */
export function createProbesSlice({ catalogue }: { catalogue: CachedCatalogue }): Slice {
  const router = Router();

  router
    .route('/healthz')
    .get((_req, res) => {
      res.set('Cache-Control', 'no-store').json({ status: 'ok' });
    })
    .all(probesAllowOnlyGetAndHead);

  router
    .route('/readyz')
    .get(async (_req, res) => {
      // Asking for the list also warms the cache, so the first visitor after a deploy gets a hit.
      const ready =
        catalogue.hasAnyCopy() ||
        (await catalogue.listProducts().then(
          () => true,
          () => false,
        ));
      // The shared cache is shown, not required: without it, a replica still answers from memory and the source.
      const sharedCache = catalogue.sharedCacheState();
      res
        .status(ready ? 200 : 503)
        .set('Cache-Control', 'no-store')
        .json({ status: ready ? 'ready' : 'unavailable', ...(sharedCache !== 'off' && { sharedCache }) });
    })
    .all(probesAllowOnlyGetAndHead);

  return { mount: 'site', router, close: () => undefined };
}
