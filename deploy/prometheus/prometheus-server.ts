import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { findExecutable } from '@catalogue/testing/find-executable';
import { freePort } from '@catalogue/testing/free-port';

/** Debian's prometheus package holds both programs. */
export const PROMETHEUS_INSTALL_HINT = 'apt-get install -y prometheus';

/** Debian's `promtool` (or PROMTOOL_PATH), or `undefined` when it is not installed. */
export function findPromtool(): string | undefined {
  return findExecutable(process.env.PROMTOOL_PATH ? [process.env.PROMTOOL_PATH] : ['/usr/bin/promtool', '/usr/local/bin/promtool']);
}

/** Debian's `prometheus` (or PROMETHEUS_PATH), or `undefined` when it is not installed. */
export function findPrometheus(): string | undefined {
  return findExecutable(process.env.PROMETHEUS_PATH ? [process.env.PROMETHEUS_PATH] : ['/usr/bin/prometheus', '/usr/local/bin/prometheus']);
}

/** One alert as Prometheus's `GET /api/v1/alerts` lists it (pending or firing; a resolved alert is not listed). */
export interface ActiveAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  activeAt: string;
  value: string;
}

/** A real Prometheus on a free loopback port, with its configuration and data in a folder of its own. */
export interface PrometheusServer {
  url: string;
  /** Every alert pending or firing now. */
  alerts(): Promise<ActiveAlert[]>;
  /** An instant query's result vector. */
  query(expression: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** Stops it (SIGTERM) and removes its folder; resolves once it is gone. */
  stop(): Promise<void>;
}

/**
 * Starts `prometheus` with the configuration given (YAML text) and the files beside it (rule files, by name), and
 * resolves once it says it is ready. Throws, naming the install command, when it is missing.
 */
export async function startPrometheus(config: string, files: Record<string, string> = {}): Promise<PrometheusServer> {
  const program = findPrometheus();
  if (program === undefined) throw new Error(`prometheus is not installed (${PROMETHEUS_INSTALL_HINT})`);
  const work = mkdtempSync(join(tmpdir(), 'catalogue-prometheus-'));
  writeFileSync(join(work, 'prometheus.yml'), config);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(work, name), text);
  const port = await freePort();
  const child = spawn(
    program,
    [
      `--config.file=${join(work, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(work, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(work, { recursive: true, force: true });
  };
  try {
    await waitForReady(url, child);
  } catch (error) {
    await stop();
    throw new Error(`prometheus did not start on port ${port}: ${String(error)} ${stderr}`.trim());
  }
  return {
    url,
    stop,
    alerts: async () => (await api<{ alerts: ActiveAlert[] }>(`${url}/api/v1/alerts`)).alerts,
    query: async (expression) =>
      (
        await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
          `${url}/api/v1/query?query=${encodeURIComponent(expression)}`,
        )
      ).result,
  };
}

async function api<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  const body = (await response.json()) as { status: string; data: T; error?: string };
  if (body.status !== 'success') throw new Error(`${url}: ${body.error ?? response.status}`);
  return body.data;
}

/** Bounded: 200 tries 100 ms apart (it is ready within a second or two). */
async function waitForReady(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await delay(100);
  }
  throw new Error('not ready after 20 s');
}
