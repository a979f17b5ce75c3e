// The operators' Grafana dashboard, as code (Grafana's foundation SDK): built here, committed as
// catalogue.dashboard.json beside it, which dashboard.test.ts holds equal to what this builds. After a change:
// `npx vitest run deploy/grafana -u` rewrites the JSON. Loading it: docs/operations.md, "Dashboard".
//
// Panels draw the recorded figures of deploy/prometheus/catalogue.rules.yml where there is one (so the dashboard
// and the alerts read the same numbers), and the server's own series for the rest, per replica.
import {
  LegendDisplayMode,
  LegendPlacement,
  StackingConfigBuilder,
  StackingMode,
  VizLegendOptionsBuilder,
} from '@grafana/grafana-foundation-sdk/common';
import {
  type Dashboard,
  DashboardBuilder,
  DashboardCursorSync,
  DatasourceVariableBuilder,
  RowBuilder,
} from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PanelBuilder } from '@grafana/grafana-foundation-sdk/timeseries';

/** Every panel asks the Prometheus data source the dashboard's variable names, chosen when it is imported. */
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

interface PanelSpec {
  title: string;
  description: string;
  unit: string;
  /** Each query with the legend of its series. */
  queries: [expr: string, legend: string][];
  stacked?: boolean;
  max?: number;
}

/** Panels and rows numbered in the order they are added: Grafana wants an id of each, unique in the dashboard. */
let lastId = 0;

function row(title: string): RowBuilder {
  return new RowBuilder(title).id((lastId += 1));
}

function panel({ title, description, unit, queries, stacked = false, max }: PanelSpec): PanelBuilder {
  const built = new PanelBuilder()
    .id((lastId += 1))
    .title(title)
    .description(description)
    .datasource(DATASOURCE)
    .unit(unit)
    .min(0)
    .height(8)
    .span(8)
    .legend(new VizLegendOptionsBuilder().showLegend(true).displayMode(LegendDisplayMode.List).placement(LegendPlacement.Bottom));
  if (max !== undefined) built.max(max);
  if (stacked) built.stacking(new StackingConfigBuilder().mode(StackingMode.Normal)).fillOpacity(40);
  queries.forEach(([expr, legend], index) =>
    built.withTarget(
      new DataqueryBuilder()
        .datasource(DATASOURCE)
        .refId(String.fromCharCode(65 + index))
        .expr(expr)
        .legendFormat(legend),
    ),
  );
  return built;
}

export function catalogueDashboard(): Dashboard {
  lastId = 0;
  return new DashboardBuilder('Product catalogue')
    .uid('product-catalogue')
    .description('The catalogue replicas: requests, cache, upstream, Redis, memory and logs (deploy/grafana/dashboard.ts)')
    .tags(['catalogue'])
    .time({ from: 'now-3h', to: 'now' })
    .refresh('1m')
    .tooltip(DashboardCursorSync.Crosshair)
    .withVariable(new DatasourceVariableBuilder('datasource').label('Prometheus').type('prometheus'))

    .withRow(row('Requests'))
    .withPanel(
      panel({
        title: 'Requests by route',
        description: 'Requests a second to every replica, by route pattern.',
        unit: 'reqps',
        queries: [['job_route:http_requests:rate5m', '{{route}}']],
        stacked: true,
      }),
    )
    .withPanel(
      panel({
        title: 'Latency by route (p99)',
        description: 'The 99th percentile by route. Cached answers take a millisecond or two; misses wait for the upstream.',
        unit: 's',
        queries: [['job_route:http_request_duration_seconds:p99_5m', '{{route}}']],
      }),
    )
    .withPanel(
      panel({
        title: '5xx answers',
        description: 'The share of requests answered 5xx (the alerts: over 1 % for 15 min, over 5 % for 5 min).',
        unit: 'percentunit',
        queries: [['job:http_requests_5xx:ratio_rate5m', '5xx']],
      }),
    )

    .withRow(row('Cache'))
    .withPanel(
      panel({
        title: 'Catalogue answers by cache status',
        description:
          'HIT: a fresh copy. MISS: the upstream asked while the client waited. STALE: an older copy, while a refresh runs or the upstream fails.',
        unit: 'reqps',
        queries: [['job_status:catalogue_cache_answers:rate5m', '{{status}}']],
        stacked: true,
      }),
    )
    .withPanel(
      panel({
        title: 'Hit and stale shares',
        description: 'The share of catalogue answers that were fresh hits, and that were stale copies (the alert: over half for 30 min).',
        unit: 'percentunit',
        max: 1,
        queries: [
          ['job:catalogue_cache_answers:hit_ratio_rate5m', 'hit'],
          ['job:catalogue_cache_answers:stale_ratio_rate5m', 'stale'],
        ],
      }),
    )
    .withPanel(
      panel({
        title: 'Answered before Express',
        description: 'Requests the response cache answered in front of Express, by replica (also counted in the figures above).',
        unit: 'reqps',
        queries: [['sum by (instance) (rate(http_response_cache_answers_total{job="catalogue"}[$__rate_interval]))', '{{instance}}']],
        stacked: true,
      }),
    )

    .withRow(row('Upstream'))
    .withPanel(
      panel({
        title: 'Upstream calls',
        description: 'Calls to PRODUCTS_API_URL a second, by operation (list, product, image) and outcome (ok, not_found, error, timeout).',
        unit: 'reqps',
        queries: [
          [
            'sum by (operation, outcome) (rate(catalogue_upstream_call_duration_seconds_count{job="catalogue"}[$__rate_interval]))',
            '{{operation}} {{outcome}}',
          ],
        ],
        stacked: true,
      }),
    )
    .withPanel(
      panel({
        title: 'Upstream failures',
        description: 'The share of calls that failed or timed out, by operation (the alert: over half for 10 min).',
        unit: 'percentunit',
        max: 1,
        queries: [['job_operation:catalogue_upstream_calls_failed:ratio_rate5m', '{{operation}}']],
      }),
    )
    .withPanel(
      panel({
        title: 'Upstream latency (p99)',
        description: 'The 99th percentile of the calls to PRODUCTS_API_URL, by operation.',
        unit: 's',
        queries: [['job_operation:catalogue_upstream_call_duration_seconds:p99_5m', '{{operation}}']],
      }),
    )

    .withRow(row('Replicas'))
    .withPanel(
      panel({
        title: 'Replicas and Redis up',
        description:
          'Replicas Prometheus scrapes, those that reach the shared cache, and those whose rate limit counts in Redis (REDIS_URL; no lines without it).',
        unit: 'short',
        queries: [
          ['sum(up{job="catalogue"})', 'scraped'],
          ['sum(catalogue_shared_cache_up{job="catalogue"})', 'reaching Redis'],
          ['sum(http_rate_limit_store_up{job="catalogue"})', 'counting the rate limit in Redis'],
        ],
      }),
    )
    .withPanel(
      panel({
        title: 'Memory',
        description: "Each replica's resident memory, and the limit the rules hold (catalogue:replica_memory_limit_bytes).",
        unit: 'bytes',
        queries: [
          ['process_resident_memory_bytes{job="catalogue"}', '{{instance}}'],
          ['catalogue:replica_memory_limit_bytes', 'limit'],
        ],
      }),
    )
    .withPanel(
      panel({
        title: 'Log lines dropped',
        description: "Log lines each replica dropped because stdout's reader was more than 8 MiB behind.",
        unit: 'short',
        queries: [['increase(log_lines_dropped_total{job="catalogue"}[$__rate_interval])', '{{instance}}']],
      }),
    )
    .withPanel(
      panel({
        title: "The list's fills",
        description:
          "Deaths of each replica's fill processes (each fill tried again at the next refill), and the list's refills that asked the upstream whether it changed: not_modified kept the list held without downloading it.",
        unit: 'short',
        queries: [
          [
            'sum by (instance, cause) (increase(catalogue_fill_process_deaths_total{job="catalogue"}[$__rate_interval]))',
            '{{instance}} fill process died ({{cause}})',
          ],
          ['sum by (outcome) (increase(catalogue_list_revalidations_total{job="catalogue"}[$__rate_interval]))', 'refills {{outcome}}'],
        ],
      }),
    )
    .build();
}

/** Every query of the dashboard's panels, with its panel's title (for the tests that read them). */
export function panelQueries(dashboard: Dashboard): { panel: string; expr: string; datasource: unknown }[] {
  return (dashboard.panels ?? []).flatMap((panel) =>
    'targets' in panel
      ? (panel.targets ?? []).map((target) => ({
          panel: panel.title ?? '',
          expr: 'expr' in target && typeof target.expr === 'string' ? target.expr : '',
          datasource: 'datasource' in target ? target.datasource : undefined,
        }))
      : [],
  );
}
