// The dashboard shipped as JSON (catalogue.dashboard.json) is exactly what dashboard.ts builds: edit the code, then
// `npx vitest run deploy/grafana -u` rewrites the file (under CI=true a difference is a failure, never rewritten).
// That its queries name only metrics the server exports: deploy/prometheus/exported-metrics.test.ts.
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { catalogueDashboard, panelQueries } from './dashboard.js';

const COMMITTED = fileURLToPath(new URL('catalogue.dashboard.json', import.meta.url));

describe('the Grafana dashboard', () => {
  it('is committed as the code builds it', async () => {
    // Formatted as `prettier --check` (npm run lint) wants every JSON file of the repository.
    const json = await format(JSON.stringify(catalogueDashboard()), { ...(await resolveConfig(COMMITTED)), filepath: COMMITTED });
    await expect(json).toMatchFileSnapshot(COMMITTED);
  });

  it('lays its panels out without overlap, each asking the chosen Prometheus', () => {
    const panels = catalogueDashboard().panels ?? [];
    const cells = new Set<string>();
    for (const panel of panels) {
      const { x, y, w, h } = panel.gridPos!;
      for (let row = y; row < y + h; row += 1)
        for (let column = x; column < x + w; column += 1) {
          const cell = `${column},${row}`;
          expect(cells.has(cell), `${panel.title} overlaps another panel at ${cell}`).toBe(false);
          cells.add(cell);
        }
    }
    const queries = panelQueries(catalogueDashboard());
    for (const { panel, expr, datasource } of queries) {
      expect(expr, panel).not.toBe('');
      expect(datasource, panel).toEqual({ type: 'prometheus', uid: '${datasource}' });
    }
    expect(new Set(queries.map((query) => query.panel)).size).toBe(13);
  });
});
