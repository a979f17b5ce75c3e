import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The built server's entry (server/dist, built by Vitest's global set-up: built-site.ts). */
export const BUILT_SERVER_ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** One line the server logged (pino's JSON). */
export type LogRecord = { msg?: string; [field: string]: unknown };

export interface BuiltServerProcess {
  child: ChildProcess;
  /** Where it serves, as it logged it. */
  url: string;
  /** Every line it logged so far. */
  records: LogRecord[];
  /** Kills it and resolves once it has exited. */
  kill(): Promise<void>;
}

/**
 * The built server as a process of its own, for what only a process shows (its threads, its memory), on port 0 of
 * 127.0.0.1 with `env` on top and `nodeArgs` before the entry; resolves once it logs that it serves, rejects if it
 * exits first. Its standard error is the test's unless `stderr: 'pipe'` (then `child.stderr` holds it).
 */
export async function startBuiltServer({
  env,
  nodeArgs = [],
  stderr = 'inherit',
}: {
  env: Record<string, string>;
  nodeArgs?: string[];
  stderr?: 'inherit' | 'pipe';
}): Promise<BuiltServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, BUILT_SERVER_ENTRY], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', stderr],
  });
  const records: LogRecord[] = [];
  const serving = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const record = JSON.parse(line) as LogRecord;
      records.push(record);
      if (record.msg?.startsWith('Serving the product catalogue')) resolve(String(record.url));
    });
    child.once('exit', (code) => reject(new Error(`the built server exited (${code}) before it served`)));
  });
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  try {
    return { child, url: await serving, records, kill };
  } catch (error) {
    await kill();
    throw error;
  }
}
