// Where one press's time goes (docs/performance.md, "The theme switch, second round"): the page loaded and settled as
// interactions.mjs loads it (the CPU slowed 4×, the app in control, the network idle), then a Chromium trace (CDP
// `Tracing`: devtools.timeline and the compositor's categories) around one press, summed per step from the press's
// input arriving to its frame's presentation (Chromium's EventLatency for it): the main thread's event handlers,
// restyles (with their element counts), layout, paint, layerize and commit, and the renderer's raster; beside the Event
// Timing entry the bench would read for the same press.
// On the last build: `node scripts/bench/trace-interaction.mjs [theme|card|menu] [375|1280] [20|5000]`.
// TRACE_RUNS (default 3): presses, each on a fresh page. TRACE_STEPS=1 lists every step in order. TRACE_PROFILE=1 adds
// a CPU profile sampled every 0.1 ms (the app's functions with what they called; build the client unminified to read
// it). TRACE_CSS=<rules> adds a style sheet before the press, to try a change without a build. TRACE_OUT=<file> writes
// the last run's trace (DevTools' Performance panel opens it). BENCH_SERVER_ENTRY measures another build.
import { writeFileSync } from 'node:fs';
import { fmt, loadAverage, median, runAlone, startPhotoUpstream, startUpstream, withServer } from './harness.mjs';
import { PRESSES, pressOnce, settle, slowedPage } from './interactions.mjs';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'blink',
  'cc',
  'gpu',
  'viz',
  'benchmark',
  'input',
  'latencyInfo',
  'toplevel',
  'blink.user_timing',
];

/** The main thread's slices that are the rendering pipeline's steps, and the step each counts in. */
const STEPS = new Map([
  ['EventDispatch', 'event handlers'],
  ['FunctionCall', 'script'],
  ['TimerFire', 'script'],
  ['FireAnimationFrame', 'script'],
  ['RunMicrotasks', 'script'],
  ['UpdateLayoutTree', 'style'],
  ['ParseAuthorStyleSheet', 'style'],
  ['Layout', 'layout'],
  ['PrePaint', 'pre-paint'],
  ['Paint', 'paint'],
  ['PaintImage', 'paint'],
  ['Layerize', 'layerize'],
  ['UpdateLayer', 'layerize'],
  ['Commit', 'commit'],
  ['HitTest', 'hit test'],
]);

/** The renderer's work off the main thread that a frame waits for. */
const OFF_MAIN = ['RasterTask', 'ImageDecodeTask', 'ProxyImpl::ScheduledActionDraw', 'TileManager::AssignGpuMemoryToTiles'];

async function traced(cdp, act) {
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReportEvents',
  });
  await act();
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

/** Trace events with their times in ms (`at`, `ms`), `X` slices and `B`/`E` pairs alike. */
function timed(events) {
  const out = [];
  const open = new Map();
  for (const { ts, dur, ...event } of events) {
    const at = ts / 1000;
    if (event.ph === 'B') {
      const key = `${event.pid}:${event.tid}`;
      open.set(key, [...(open.get(key) ?? []), { ...event, at }]);
    } else if (event.ph === 'E') {
      const begin = open.get(`${event.pid}:${event.tid}`)?.pop();
      if (begin) out.push({ ...begin, ph: 'X', ms: at - begin.at, args: { ...begin.args, ...event.args } });
    } else out.push({ ...event, at, ms: (dur ?? 0) / 1000 });
  }
  return out.sort((a, b) => a.at - b.at);
}

const sum = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
const list = (map) => [...map].map(([key, ms]) => `${key} ${fmt(ms, 1)}`).join(', ') || 'nothing';

/** What the trace shows from the press's input arriving to its frame's presentation. */
function summarise(rawEvents, log) {
  const events = timed(rawEvents);
  const threads = new Map(
    events
      .filter((event) => event.ph === 'M' && event.name === 'thread_name')
      .map((event) => [`${event.pid}:${event.tid}`, event.args.name]),
  );
  const dispatches = events.filter((event) => event.name === 'EventDispatch' && ['pointerdown', 'click'].includes(event.args?.data?.type));
  if (dispatches.length === 0) return log('    no press in the trace');
  const { pid, tid } = dispatches[0];
  const pressed = dispatches[0].at;
  const latencyOf = (event) => event.args?.event_latency?.event_type;
  const begin = events.find(
    (event) => event.name === 'EventLatency' && event.ph === 'b' && latencyOf(event) === 'MOUSE_PRESSED' && event.at <= pressed,
  );
  const end = begin && events.find((event) => event.name === 'EventLatency' && event.ph === 'e' && event.id2?.local === begin.id2?.local);
  const from = begin?.at ?? pressed - 2;
  const to = end?.at ?? from + 250;
  log(`    input arrived → presented ${end ? fmt(to - from, 1) : 'n/a'} ms (the press dispatched at +${fmt(pressed - from, 1)} ms)`);
  const main = events.filter((event) => event.pid === pid && event.tid === tid && event.ph === 'X' && event.at >= from && event.at <= to);
  const steps = main.filter((slice) => STEPS.has(slice.name));
  const totals = new Map();
  const handlers = new Map();
  for (const slice of steps) {
    // Each step counted once: a Layout inside a forced UpdateLayoutTree, a FunctionCall inside an EventDispatch.
    const inside = steps.some(
      (outer) => outer !== slice && outer.at <= slice.at && outer.at + outer.ms >= slice.at + slice.ms && outer.ms > slice.ms,
    );
    if (!inside) sum(totals, STEPS.get(slice.name), slice.ms);
    if (slice.name === 'EventDispatch') sum(handlers, slice.args.data.type, slice.ms);
    if (process.env.TRACE_STEPS && slice.ms >= 0.1) {
      const detail = slice.args?.elementCount ?? slice.args?.data?.type ?? slice.args?.data?.functionName ?? '';
      log(`      +${fmt(slice.at - from, 1).padStart(6)} ms ${slice.name.padEnd(18)} ${fmt(slice.ms, 2).padStart(6)} ms ${detail}`);
    }
  }
  log(`    main thread (${threads.get(`${pid}:${tid}`)}): ${list(totals)} ms`);
  const restyles = steps.filter((slice) => slice.name === 'UpdateLayoutTree' && slice.args?.elementCount > 20);
  log(
    `    restyles of more than 20 elements: ${restyles.map((slice) => `${slice.args.elementCount} in ${fmt(slice.ms, 1)} ms`).join(', ') || 'none'}`,
  );
  log(`    event handlers by event: ${list(handlers)} ms`);
  const offMain = new Map();
  for (const event of events) {
    if (event.pid !== pid || event.tid === tid || event.ph !== 'X' || event.at < from || event.at > to || !OFF_MAIN.includes(event.name))
      continue;
    sum(offMain, `${event.name} (${threads.get(`${event.pid}:${event.tid}`) ?? event.tid})`, event.ms);
  }
  log(`    the renderer's other threads: ${list(offMain)} ms`);
}

/** The app's functions (its `/assets/` scripts) by the samples spent in them and what they called, most first. */
function printProfile(profile, log) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const total = new Map();
  profile.samples.forEach((id, index) => {
    const counted = new Set();
    for (let at = id; at !== undefined; at = parents.get(at)) {
      const { functionName, url, lineNumber } = nodes.get(at).callFrame;
      const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
      if (!url.includes('/assets/') || counted.has(key)) continue;
      counted.add(key);
      sum(total, key, (profile.timeDeltas[index + 1] ?? 0) / 1000);
    }
  });
  const top = [...total].sort((a, b) => b[1] - a[1]).slice(0, 25);
  log(
    `    the app's script, with what it called (the press and the settling after it): ${top.map(([key, ms]) => `${key} ${fmt(ms, 1)}`).join('; ')} ms`,
  );
}

async function run({ browser, log }) {
  const [which = 'theme', width = '1280', size = '20'] = process.argv.slice(2);
  const press = PRESSES[which];
  if (!press) throw new Error(`no press named ${which}: ${Object.keys(PRESSES).join(', ')}`);
  const runs = Number(process.env.TRACE_RUNS) || 3;
  const upstream = size === '20' ? startPhotoUpstream() : startUpstream(Number(size));
  await withServer(upstream, { pinned: false }, async (server) => {
    log(`${which} at ${width} px, ${size} products; load average ${loadAverage() ?? 'n/a'}`);
    const durations = [];
    for (let attempt = 1; attempt <= runs; attempt++) {
      const context = await browser.newContext({ viewport: { width: Number(width), height: 800 } });
      const page = await slowedPage(context, server.origin + press.path);
      if (process.env.TRACE_CSS) {
        await page.addStyleTag({ content: process.env.TRACE_CSS });
        await settle(page);
      }
      const cdp = await context.newCDPSession(page);
      if (process.env.TRACE_PROFILE) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
      }
      let entries;
      const events = await traced(cdp, async () => {
        entries = await pressOnce(page, press);
      });
      const worst = entries.reduce((found, entry) => (entry.duration > (found?.duration ?? -1) ? entry : found), null);
      durations.push(worst?.duration ?? 0);
      log(
        `  press ${attempt}: ${
          worst
            ? `${worst.name} ${fmt(worst.duration)} ms (input delay ${fmt(worst.inputDelay)}, processing ${fmt(worst.processing)}, ` +
              `presentation ${fmt(worst.presentation)})`
            : 'under 16 ms'
        }; ${await page.evaluate(() => document.querySelectorAll('*').length)} elements on the page`,
      );
      summarise(events, log);
      if (process.env.TRACE_PROFILE) printProfile((await cdp.send('Profiler.stop')).profile, log);
      if (process.env.TRACE_OUT && attempt === runs) writeFileSync(process.env.TRACE_OUT, JSON.stringify({ traceEvents: events }));
      await context.close();
    }
    log(
      `  median ${fmt(median(durations))} ms (${durations.map((duration) => fmt(duration)).join(', ')}); load average ${loadAverage() ?? 'n/a'}`,
    );
  });
}

await runAlone(import.meta.url, run, { browser: true });
