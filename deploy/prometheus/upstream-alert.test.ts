// The rules end to end: a real Prometheus (Debian's) scraping the built server, which stands in front of the
// upstream double while clients keep asking it. The upstream goes down: CatalogueUpstreamFailing must go pending,
// then fire; the upstream comes back: it must resolve. The timings are printed for the record.
//
// Prometheus loads the shipped rule expressions with their windows shortened so that this takes seconds, not a
// quarter of an hour: every `for:` to 3 s and every rate window ([5m]) to 10 s, scraped and evaluated each second.
// The real windows are covered by promtool's unit tests (rules.test.ts).
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { startUpstreamStub, type UpstreamStub } from '@catalogue/testing/upstream-double';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { type BuiltCatalogue, startBuiltCatalogue } from './built-catalogue.js';
import { type ActiveAlert, findPrometheus, PROMETHEUS_INSTALL_HINT, type PrometheusServer, startPrometheus } from './prometheus-server.js';

const prometheusMissing = findPrometheus() === undefined && !process.env.CI;
if (prometheusMissing) console.warn(`Skipping the alert test: prometheus is not installed (${PROMETHEUS_INSTALL_HINT})`);

const RULES = readFileSync(new URL('catalogue.rules.yml', import.meta.url), 'utf8');
const EXAMPLE_CONFIG = readFileSync(new URL('prometheus.example.yml', import.meta.url), 'utf8');
const ALERT = 'CatalogueUpstreamFailing';
/** The list's calls, the one every page and API answer depends on (product calls fail alike, and alert alike). */
const isListAlert = (alert: ActiveAlert) => alert.labels.alertname === ALERT && alert.labels.operation === 'list';
/** How long each phase may take before the test gives up: far past what a healthy run needs (about 5 and 12 s). */
const PHASE_LIMIT_MS = 45_000;

interface RuleFile {
  groups: { name: string; rules: { expr: string; for?: string }[] }[];
}

/** The shipped rules with short windows (see the top of this file); the expressions are otherwise untouched. */
function shortenedRules(): string {
  const rules = parse(RULES) as RuleFile;
  for (const rule of rules.groups.flatMap((group) => group.rules)) {
    rule.expr = rule.expr.replaceAll('[5m]', '[10s]');
    if (rule.for !== undefined) rule.for = '3s';
  }
  return stringify(rules);
}

/** The example configuration, scraping one loopback target each second. */
function configFor(target: string): string {
  const config = parse(EXAMPLE_CONFIG) as {
    global: Record<string, string>;
    scrape_configs: Record<string, unknown>[];
  };
  config.global = { scrape_interval: '1s', evaluation_interval: '1s' };
  const job = config.scrape_configs[0]!;
  delete job.dns_sd_configs;
  job.static_configs = [{ targets: [target] }];
  return stringify(config);
}

let upstream: UpstreamStub | undefined;
let catalogue: BuiltCatalogue | undefined;
let prometheus: PrometheusServer | undefined;
let asking = false;

afterEach(async () => {
  asking = false;
  await prometheus?.stop();
  await catalogue?.stop();
  await upstream?.close();
  prometheus = catalogue = upstream = undefined;
}, 30_000);

/** Clients asking for the list and a product, one after the other, until told to stop: what makes refreshes happen. */
async function keepAsking(url: string): Promise<number> {
  let asked = 0;
  while (asking) {
    for (const path of ['/api/products', '/api/products/1']) {
      await fetch(`${url}${path}`, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.arrayBuffer(),
        () => undefined,
      );
      asked += 1;
    }
    await delay(100);
  }
  return asked;
}

/** Polls the alert's state every 200 ms until `wanted` says yes; its state (or `undefined`: not listed) then. */
async function waitForAlert(wanted: (state: string | undefined) => boolean, what: string): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < PHASE_LIMIT_MS) {
    const alert = (await prometheus!.alerts()).find(isListAlert);
    if (wanted(alert?.state)) return performance.now() - started;
    await delay(200);
  }
  throw new Error(`${ALERT} was not ${what} within ${PHASE_LIMIT_MS / 1000} s`);
}

describe.skipIf(prometheusMissing)('the alert rules in a real Prometheus', () => {
  it(`${ALERT} goes pending, fires while the upstream is down, and resolves when it is back`, { timeout: 180_000 }, async () => {
    upstream = await startUpstreamStub();
    // A second's freshness, so that every request past it asks the upstream again (a STALE answer and a refresh).
    catalogue = await startBuiltCatalogue({
      PRODUCTS_API_URL: upstream.url,
      CACHE_TTL_SECONDS: '1',
      UPSTREAM_TIMEOUT_MS: '1000',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    });
    prometheus = await startPrometheus(configFor(catalogue.address), { 'catalogue.rules.yml': shortenedRules() });
    asking = true;
    const asked = keepAsking(catalogue.url);

    // Healthy first: scraped, the list fetched, and no alert.
    const healthy = performance.now();
    while ((await prometheus.query('job_operation:catalogue_upstream_calls:rate5m{operation="list"} > 0')).length === 0) {
      if (performance.now() - healthy > PHASE_LIMIT_MS) throw new Error('Prometheus never saw a list call');
      await delay(200);
    }
    expect((await prometheus.alerts()).filter((alert) => alert.labels.alertname === ALERT)).toEqual([]);

    await upstream.setMode('status500');
    const pendingMs = await waitForAlert((state) => state !== undefined, 'pending or firing');
    // Seen pending first: the `for:` window is honoured, not skipped.
    const firstState = (await prometheus.alerts()).find(isListAlert)?.state;
    const firingMs = pendingMs + (await waitForAlert((state) => state === 'firing', 'firing'));
    const fired = (await prometheus.alerts()).find(isListAlert)!;
    expect(fired.labels).toEqual({ alertname: ALERT, severity: 'warning', job: 'catalogue', operation: 'list' });
    expect(fired.annotations.runbook_url).toBe('docs/operations.md#catalogueupstreamfailing');

    await upstream.setMode('normal');
    const resolvedMs = await waitForAlert((state) => state === undefined, 'resolved');
    asking = false;
    const requests = await asked;

    console.log(
      `${ALERT} with for: 3s, [10s] windows, 1 s scrapes: upstream down → pending after ${(pendingMs / 1000).toFixed(1)} s` +
        ` (first seen ${firstState ?? 'resolved'}) → firing after ${(firingMs / 1000).toFixed(1)} s;` +
        ` upstream back → resolved after ${(resolvedMs / 1000).toFixed(1)} s (${requests} requests asked)`,
    );
    expect(firstState).toBe('pending');
  });
});
