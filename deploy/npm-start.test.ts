// `npm start` (scripts/start.mjs) runs the server as a child and exits as it does. Run here as it is, in a copy of
// the repository's layout whose build is up to date (so it builds nothing) and whose server is a stand-in that
// stops as each case tells it to.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The stand-in server: says it is ready, then dies of the signal or exits with the code STAND_IN names, or waits for SIGTERM. */
const STAND_IN = `
const how = process.env.STAND_IN;
process.on('SIGTERM', () => { process.stdout.write('stopping\\n'); process.exit(0); });
process.stdout.write('ready\\n');
if (how === 'wait') setInterval(() => {}, 1000);
else if (how.startsWith('SIG')) { process.removeAllListeners('SIGTERM'); process.kill(process.pid, how); }
else process.exit(Number(how));
`;

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'catalogue-npm-start-'));
  const scripts = join(root, 'scripts');
  mkdirSync(scripts);
  for (const name of ['start.mjs', 'runtime-settings.mjs'])
    copyFileSync(fileURLToPath(new URL(`../scripts/${name}`, import.meta.url)), join(scripts, name));
  for (const folder of ['shared/dist', 'server/dist', 'client/dist']) mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, 'server/dist/index.js'), STAND_IN);
  writeFileSync(join(root, 'client/dist/index.html'), '');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function npmStart(how: string) {
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
    env: { ...process.env, STAND_IN: how },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('ready\n')) resolve();
    }),
  );
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout }));
  return { child, ready, exited };
}

describe('npm start (scripts/start.mjs)', () => {
  it('exits with the code the server exits with', async () => {
    expect((await npmStart('3').exited).code).toBe(3);
    expect((await npmStart('0').exited).code).toBe(0);
  });

  it("exits 128 + the signal's number when the server is killed by a signal, as a shell reports it", async () => {
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
      ['SIGKILL', 137],
    ] as const) {
      expect((await npmStart(signal).exited).code, signal).toBe(code);
    }
  });

  it('passes SIGTERM on to the server, and exits 0 when the server stops cleanly', async () => {
    const { child, ready, exited } = npmStart('wait');
    await ready;
    child.kill('SIGTERM');
    const { code, stdout } = await exited;
    expect(stdout).toBe('ready\nstopping\n');
    expect(code).toBe(0);
  });
});
