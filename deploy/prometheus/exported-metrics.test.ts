// Every metric the shipped rules (catalogue.rules.yml) and the dashboard (deploy/grafana/) name is one the server
// exports: read from the /metrics of the built server, with Redis configured (its series exist only then) and
// each kind of request asked once (an upstream call, a photo variant), rather than from the code's registrations.
// A renamed metric, or a query with a typo, would otherwise draw an empty panel and an alert that never fires.
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { findRedisServer, REDIS_INSTALL_HINT, type RedisServer, startRedisServer } from '@catalogue/testing/redis-server';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { catalogueDashboard, panelQueries } from '../grafana/dashboard.js';
import { type BuiltCatalogue, startBuiltCatalogue } from './built-catalogue.js';
import { metricNamesIn } from './promql-metrics.js';

const redisMissing = findRedisServer() === undefined && !process.env.CI;
if (redisMissing) console.warn(`Skipping the exported metrics' test: redis-server is not installed (${REDIS_INSTALL_HINT})`);

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
}
const RULES = (
  parse(readFileSync(new URL('catalogue.rules.yml', import.meta.url), 'utf8')) as { groups: { rules: Rule[] }[] }
).groups.flatMap((group) => group.rules);
/** Starting Redis, the built server and a photo's first resize on a busy machine: generous, and never reached by a healthy run. */
const PROCESS_HOOK_TIMEOUT_MS = 60_000;
/** Series Prometheus makes itself for every target, not the server. */
const PROMETHEUS_OWN = ['up'];

let redis: RedisServer | undefined;
let upstream: UpstreamStub | undefined;
let catalogue: BuiltCatalogue | undefined;
let exported: Set<string>;

/**
 * The names in a /metrics text: its series, and the counters and gauges its `# TYPE` lines declare (a labelled
 * counter has no series until its first count: a list thread's restarts, say). A histogram's `# TYPE` names no
 * series of its own, so its `_bucket`, `_sum` and `_count` come from the series alone.
 */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const declared = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge)$/.exec(line);
    if (declared) names.add(declared[1]!);
    else if (line !== '' && !line.startsWith('#')) names.add(/^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)![0]);
  }
  return names;
}

beforeAll(async () => {
  if (redisMissing) return;
  redis = await startRedisServer();
  upstream = await startUpstreamStub({ photos: true });
  catalogue = await startBuiltCatalogue({ PRODUCTS_API_URL: upstream.url, REDIS_URL: redis.url, LOG_LEVEL: 'warn' });
  for (const path of ['/api/products', '/api/products/1', '/productdetails/1', '/api/products/1/image?w=320'])
    expect((await fetch(`${catalogue.url}${path}`, { headers: { accept: 'image/webp,*/*' } })).status, path).toBe(200);
  // Redis's gauge is registered by the store's first report, which comes once its connection is made: polled, bounded.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    exported = exportedNames(await (await fetch(`${catalogue.url}/metrics`)).text());
    if (exported.has('catalogue_shared_cache_up')) break;
    await delay(100);
  }
}, PROCESS_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await catalogue?.stop();
  await upstream?.close();
  await redis?.stop();
}, PROCESS_HOOK_TIMEOUT_MS);

describe.skipIf(redisMissing)('the metrics the rules and the dashboard name', () => {
  it('are exported by the server with Redis configured', () => {
    // What the operators watch, there to be named.
    for (const name of [
      'http_request_duration_seconds_bucket',
      'catalogue_cache_answers_total',
      'catalogue_upstream_call_duration_seconds_count',
      'catalogue_shared_cache_up',
      'http_response_cache_answers_total',
      'log_lines_dropped_total',
      'process_resident_memory_bytes',
      'image_variant_encodes_total',
      'catalogue_fill_process_deaths_total',
      'catalogue_list_thread_restarts_total',
    ])
      expect(exported, name).toContain(name);
  });

  it("are, in every rule expression, exported, recorded by an earlier rule, or Prometheus's own", () => {
    const known = new Set([...exported, ...PROMETHEUS_OWN]);
    const unknown: string[] = [];
    for (const rule of RULES) {
      for (const name of metricNamesIn(rule.expr)) if (!known.has(name)) unknown.push(`${rule.record ?? rule.alert}: ${name}`);
      if (rule.record !== undefined) known.add(rule.record);
    }
    expect(unknown).toEqual([]);
  });

  it("are, in every panel query of the dashboard, exported, recorded by the rules, or Prometheus's own", () => {
    const known = new Set([...exported, ...PROMETHEUS_OWN, ...RULES.flatMap((rule) => rule.record ?? [])]);
    const queries = panelQueries(catalogueDashboard());
    expect(queries.length).toBeGreaterThan(12);
    const unknown = queries.flatMap(({ panel, expr }) =>
      metricNamesIn(expr).flatMap((name) => (known.has(name) ? [] : [`${panel}: ${name}`])),
    );
    expect(unknown).toEqual([]);
  });
});
