// `node scripts/bench/hit-files.mjs [url …]`: the project's files one cached hit runs code in, read off the built
// server as `npm start` runs it (its access log on) by V8's own precise coverage over the inspector protocol: the
// counts are reset, one request is sent, and every file of server/dist and shared/dist with a function that ran
// is listed. What a newcomer reads to follow a hit, and what each hit pays for (docs/architecture.md, "Response
// cache"). Defaults to the cached list at 5 products; BENCH_SERVER_ENTRY measures another build, as the bench does.
import { freePort, get, startBuiltServer, stopAllProcesses } from './harness.mjs';

const ROOT = new URL('../../', import.meta.url).href;
const PROJECT_FILES = /\/(server|shared)\/dist\//;
const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/api/products?limit=5'];

const inspectorPort = await freePort();
// Unoptimised, so that a function inlined into an optimised caller is still counted as run.
const { origin, child } = await startBuiltServer({ nodeFlags: [`--inspect=127.0.0.1:${inspectorPort}`, '--no-opt', '--no-maglev'] });
try {
  const [target] = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
  const inspector = await connect(target.webSocketDebuggerUrl);
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  for (const path of paths) {
    // Asked until the response cache answers it itself (a fresh entry, its body prepared).
    for (let tries = 0; tries < 5; tries += 1) await get(`${origin}${path}`, { 'accept-encoding': 'gzip' });
    await inspector.send('Profiler.takePreciseCoverage'); // resets the counts
    // The access line is the hit's last work: the counts are taken once it is out, not when the client has the bytes.
    const id = `hit-files-${paths.indexOf(path)}`;
    const logged = accessLine(child, id);
    const response = await get(`${origin}${path}`, { 'accept-encoding': 'gzip', 'x-request-id': id });
    await logged;
    const { result } = await inspector.send('Profiler.takePreciseCoverage');
    const files = result
      .filter(({ url }) => PROJECT_FILES.test(url) && url.startsWith(ROOT))
      .filter(({ functions }) => functions.some(({ ranges }) => ranges[0].count > 0))
      .map(({ url }) => url.slice(ROOT.length));
    console.log(`\nGET ${path} → ${response.status} X-Cache ${response.headers['x-cache']}: ${files.length} files`);
    for (const file of files) console.log(`  ${file}`);
  }
  inspector.close();
} finally {
  await stopAllProcesses();
}

/** Resolves when the server's stdout carries the access line of the request with this id. */
function accessLine(server, id) {
  return new Promise((resolve) => {
    const onData = (chunk) => {
      if (!String(chunk).includes(`"id":"${id}"`)) return;
      server.stdout.off('data', onData);
      resolve();
    };
    server.stdout.on('data', onData);
  });
}

/** A minimal client of the inspector protocol over Node's own WebSocket. */
async function connect(url) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  const pending = new Map();
  let lastId = 0;
  socket.addEventListener('message', ({ data }) => {
    const message = JSON.parse(data);
    const settle = pending.get(message.id);
    if (!settle) return;
    pending.delete(message.id);
    if (message.error) settle.reject(new Error(message.error.message));
    else settle.resolve(message.result);
  });
  return {
    send(method, params = {}) {
      const id = ++lastId;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    close: () => socket.close(),
  };
}
