// A part of the bench run on its own (`node scripts/bench/<part>.mjs`, after `npm run build`), as `npm run bench`
// (run.mjs) runs it: the processes it starts are stopped however it ends, a browser launched for it when it needs
// one, and its figures printed at the end as the bench's summary prints them.
import { pathToFileURL } from 'node:url';
import { launchChromium } from './browser.mjs';
import { killChildrenOnExit, stopAllProcesses } from './processes.mjs';
import { Report } from './report.mjs';

/** Whether the module at `moduleUrl` (its import.meta.url) is the script node was asked to run. */
export const runsAlone = (moduleUrl) => moduleUrl === pathToFileURL(process.argv[1] ?? '').href;

/** Runs `measure({ log, report, browser })`, with Chromium when `browser` is asked for, then prints the report. */
export async function runAlone(measure, { browser: withBrowser = false } = {}) {
  killChildrenOnExit();
  const report = new Report();
  const browser = withBrowser ? await launchChromium() : undefined;
  try {
    await measure({ log: (line = '') => console.log(line), report, browser });
  } finally {
    await browser?.close();
    await stopAllProcesses();
  }
  console.log(['', ...report.lines()].join('\n'));
}
