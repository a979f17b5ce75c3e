import { parser } from '@prometheus-io/lezer-promql';

/** Grafana's interval variables, which PromQL does not know: read as an ordinary range for parsing. */
const GRAFANA_INTERVALS = /\$__(rate_interval|interval|range)\b/g;

/**
 * The metric names a PromQL expression selects, read with Prometheus's own grammar (the parser its web UI uses),
 * so that label names, functions and `by (…)` lists are never mistaken for metrics. Throws on an expression that
 * does not parse, or on a selector without a metric name (`{__name__=~"…"}`), whose metrics cannot be checked.
 */
export function metricNamesIn(expression: string): string[] {
  const expr = expression.replace(GRAFANA_INTERVALS, '5m');
  const names = new Set<string>();
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError) throw new Error(`not PromQL at ${node.from}: ${expression}`);
      if (node.name !== 'VectorSelector') return;
      const name = node.node.getChild('Identifier');
      if (name === null) throw new Error(`a selector without a metric name: ${expr.slice(node.from, node.to)}`);
      names.add(expr.slice(name.from, name.to));
    },
  });
  return [...names];
}
