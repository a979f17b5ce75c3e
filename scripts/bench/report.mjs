// The summary: every figure with its target and PASS/MISS, as a markdown table printed at the end and written
// to .bench/latest.md (gitignored) for docs/performance.md to quote.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';

/** The median of the values that were measured (null and NaN are left out; Infinity counts as the largest). */
export function median(values) {
  const sorted = values.filter((value) => typeof value === 'number' && !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A figure for the summary: `digits` decimals (none by default), thousands separated ("12,644"), or "n/a". */
export const fmt = (value, digits = 0) =>
  value === null || value === undefined
    ? 'n/a'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A share of one core (0.5) as a percentage ("50%"). */
export const percent = (share) => (share === null || share === undefined ? 'n/a' : `${Math.round(share * 100)}%`);

export function describeMachine() {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(safeRead('/proc/cpuinfo'))?.[1] ?? 'unknown CPU';
  let chromium = 'not found';
  try {
    chromium = execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // reported as not found
  }
  return `${availableParallelism()} × ${cpu}, Node ${process.version}, ${chromium}`;
}

/**
 * The 1-minute load average. The bench cannot make a busy machine quiet, but it can say that it was busy: with
 * other work running, every figure here is lower than the machine can do, and the ratios are noisier.
 */
export function loadAverage() {
  return Number(safeRead('/proc/loadavg').split(' ')[0]) || null;
}

function safeRead(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export class Report {
  rows = [];

  /** `passed`: true, false, or null for a figure without a target (or one that could not be measured). */
  add(area, figure, value, target = '', passed = null) {
    this.rows.push({ area, figure, value, target, status: passed === null ? '' : passed ? 'PASS' : 'MISS' });
  }

  /** The rows as plain lines, for a part of the bench run on its own. */
  lines() {
    return this.rows.map((row) => `${row.status.padEnd(4)} ${row.figure}: ${row.value}${row.target ? ` (target ${row.target})` : ''}`);
  }

  markdown({ machine, command, settings, startedAt, durationSeconds }) {
    const cell = (text) => String(text).replaceAll('|', '\\|');
    const lines = [
      `Benchmark run of ${startedAt.toISOString()} (\`${command}\`, ${durationSeconds.toFixed(0)} s)`,
      '',
      `Machine: ${machine}`,
      '',
      `Settings: ${settings}`,
      '',
      '| area | figure | measured | target | |',
      '| --- | --- | --- | --- | --- |',
      ...this.rows.map((row) => `| ${cell(row.area)} | ${cell(row.figure)} | ${cell(row.value)} | ${cell(row.target)} | ${row.status} |`),
    ];
    return `${lines.join('\n')}\n`;
  }
}

export function writeReport(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
