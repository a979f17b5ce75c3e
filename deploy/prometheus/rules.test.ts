// The rules shipped for operators (deploy/prometheus/catalogue.rules.yml) as Debian's promtool reads them: valid,
// loaded by the example configuration, and behaving as catalogue.rules.test.yml says over their real `for:`
// windows (upstream failing, stale answers, Redis down, 5xx, latency by route, memory, dropped log lines, replicas
// down). What a real Prometheus does with them against a running server: upstream-alert.test.ts.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findPromtool, PROMETHEUS_INSTALL_HINT } from './prometheus-server.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const promtool = findPromtool();
// Skipped with the install command without promtool, except in CI, where a missing promtool is a failure.
const promtoolMissing = promtool === undefined && !process.env.CI;
if (promtoolMissing) console.warn(`Skipping the Prometheus rules' tests: promtool is not installed (${PROMETHEUS_INSTALL_HINT})`);

function runPromtool(...args: string[]): { status: number | null; output: string } {
  if (promtool === undefined) throw new Error(`promtool is not installed (${PROMETHEUS_INSTALL_HINT})`);
  const result = spawnSync(promtool, args, { cwd: HERE, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe.skipIf(promtoolMissing)('the Prometheus rules (promtool)', () => {
  it('are valid rules', () => {
    const { status, output } = runPromtool('check', 'rules', 'catalogue.rules.yml');
    expect(output).toContain('SUCCESS');
    expect(status, output).toBe(0);
  });

  it('are loaded by the example configuration, which is valid', () => {
    const { status, output } = runPromtool('check', 'config', 'prometheus.example.yml');
    expect(output).toContain('1 rule files found');
    expect(status, output).toBe(0);
  });

  it('pass their unit tests over the real windows (catalogue.rules.test.yml)', () => {
    const { status, output } = runPromtool('test', 'rules', 'catalogue.rules.test.yml');
    expect(status, output).toBe(0);
    expect(output).toContain('SUCCESS');
  });
});
