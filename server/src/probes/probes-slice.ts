import { Router } from 'express';
import { Counter, Gauge } from 'prom-client';
import type { CachedCatalogue } from '../catalogue/caches/cached-catalogue.js';
import type { Metrics } from '../http/metrics.js';
import { probesAllowOnlyGetAndHead } from '../http/method-not-allowed.js';
import type { Slice } from '../http/slice.js';
import type { Logger } from '../logger.js';

/**
 * `/healthz` (liveness: the process serves) and `/readyz` (readiness: catalogue requests can be answered from the list
 * held, a cached copy or the source: catalogue/caches/cached-catalogue.ts's `readiness`). Probes must see the truth each time,
 * so neither answer may be cached. Each change of readiness is one log line; `catalogue_ready` shows it and
 * `catalogue_readiness_failures_total` counts the failed probes by why (docs/operations.md, "Probes and metrics").
 */
export function createProbesSlice({ catalogue, logger, metrics }: { catalogue: CachedCatalogue; logger: Logger; metrics: Metrics }): Slice {
  const router = Router();
  const registers = [metrics.registry];
  const readyGauge = new Gauge({ name: 'catalogue_ready', help: 'Whether /readyz last answered ready (1) or not (0)', registers });
  const failures = new Counter({
    name: 'catalogue_readiness_failures_total',
    help: 'Readiness probes answered 503, by reason: list_broken (the list held does not answer from its database) or unavailable (nothing held, the source fails)',
    labelNames: ['reason'] as const,
    registers,
  });
  let wasReady: boolean | undefined;

  router
    .route('/healthz')
    .get((_req, res) => {
      res.set('Cache-Control', 'no-store').json({ status: 'ok' });
    })
    .all(probesAllowOnlyGetAndHead);

  router
    .route('/readyz')
    .get(async (_req, res) => {
      const readiness = await catalogue.readiness();
      readyGauge.set(readiness.ready ? 1 : 0);
      if (!readiness.ready) {
        failures.inc({ reason: readiness.reason });
        if (wasReady !== false) logger.error({ reason: readiness.reason, why: readiness.message }, 'Not ready: /readyz answers 503');
      } else if (wasReady === false) {
        logger.info('Ready again: /readyz answers 200');
      }
      wasReady = readiness.ready;
      // The shared cache is shown, not required: without it, a replica still answers from memory and the source.
      const sharedCache = catalogue.sharedCacheState();
      res
        .status(readiness.ready ? 200 : 503)
        .set('Cache-Control', 'no-store')
        .json({ status: readiness.ready ? 'ready' : 'unavailable', ...(sharedCache !== 'off' && { sharedCache }) });
    })
    .all(probesAllowOnlyGetAndHead);

  return { mount: 'site', router, close: () => undefined };
}
