// One HTTP check for the Docker smoke test, with node's own fetch (so CI needs no curl):
//   node scripts/docker/probe.mjs <check> <base-url>
// Prints one line saying what it saw; exits 0 when the answer is what the README promises, 1 otherwise.
// Every request is bounded by a timeout, so a hung server fails the check instead of hanging CI.
const [check, base] = process.argv.slice(2);
const TIMEOUT_MS = 10_000;

async function get(path, accept) {
  const response = await fetch(new URL(path, base), {
    headers: accept ? { accept } : {},
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    proxyCache: response.headers.get('x-proxy-cache'),
    allowOrigin: response.headers.get('access-control-allow-origin'),
    body,
  };
}

const checks = {
  async healthz() {
    const r = await get('/healthz');
    const json = JSON.parse(r.body.toString('utf8'));
    return [r.status === 200 && json.status === 'ok', `${r.status} ${r.body.toString('utf8').slice(0, 80)}`];
  },
  async readyz() {
    const r = await get('/readyz');
    return [r.status === 200, `${r.status} ${r.body.toString('utf8').slice(0, 80)}`];
  },
  async products() {
    const r = await get('/api/products');
    let list;
    try {
      list = JSON.parse(r.body.toString('utf8'));
    } catch {
      return [false, `${r.status} ${r.type}, not JSON: ${r.body.toString('utf8').slice(0, 80)}`];
    }
    const ok = r.status === 200 && r.type.includes('json') && Array.isArray(list) && list.length > 0;
    const first = Array.isArray(list) ? list[0] : undefined;
    return [
      ok,
      `${r.status} ${r.type}, ${Array.isArray(list) ? `${list.length} products, first id ${first?.id}, image ${first?.image}` : 'not an array'}`,
    ];
  },
  async image() {
    const r = await get('/api/products/1/image');
    return [r.status === 200 && r.type.startsWith('image/') && r.body.length > 0, `${r.status} ${r.type}, ${r.body.length} bytes`];
  },
  async categories() {
    const r = await get('/api/products/categories');
    const names = JSON.parse(r.body.toString('utf8'));
    const ok = r.status === 200 && Array.isArray(names) && names.length > 0 && names.every((name) => typeof name === 'string');
    return [
      ok && r.allowOrigin === '*',
      `${r.status}, ${JSON.stringify(names).slice(0, 80)}, Access-Control-Allow-Origin ${r.allowOrigin}`,
    ];
  },
  async openapi() {
    const r = await get('/api/openapi.json');
    const document = JSON.parse(r.body.toString('utf8'));
    const paths = Object.keys(document.paths ?? {});
    return [
      r.status === 200 && document.openapi === '3.1.0' && paths.length > 0,
      `${r.status} OpenAPI ${document.openapi}, ${paths.length} paths`,
    ];
  },
  // Through nginx (the scale profile): X-Proxy-Cache is nginx's own cache status.
  async ['proxy-cache-hit']() {
    const r = await get('/api/products');
    return [r.status === 200 && r.proxyCache === 'HIT', `${r.status}, X-Proxy-Cache ${r.proxyCache}, ${r.body.length} bytes`];
  },
  async ['proxy-cache-any']() {
    const r = await get('/api/products');
    const fromCache = ['HIT', 'STALE', 'UPDATING'].includes(r.proxyCache);
    return [r.status === 200 && fromCache && r.body.length > 2, `${r.status}, X-Proxy-Cache ${r.proxyCache}, ${r.body.length} bytes`];
  },
  // Through nginx: which replicas answer the uncached /healthz (X-Replica, the address nginx reached), in 60 requests.
  async replicas() {
    const seen = new Set();
    for (let i = 0; i < 60; i += 1) {
      const response = await fetch(new URL('/healthz', base), { signal: AbortSignal.timeout(TIMEOUT_MS) });
      await response.arrayBuffer();
      if (response.status !== 200) return [false, `${response.status} from /healthz`];
      // The addresses nginx tried, the one that answered last.
      seen.add(response.headers.get('x-replica')?.split(',').at(-1).trim().split(':')[0]);
    }
    return [true, [...seen].sort().join(' ')];
  },
  async page() {
    const r = await get('/', 'text/html');
    const text = r.body.toString('utf8');
    return [r.status === 200 && r.type.includes('text/html') && /<html/i.test(text), `${r.status} ${r.type}, ${r.body.length} bytes`];
  },
};

if (!checks[check] || !base) {
  console.error(`usage: node probe.mjs <${Object.keys(checks).join('|')}> <base-url>`);
  process.exit(2);
}
try {
  const [ok, seen] = await checks[check]();
  console.log(seen);
  process.exit(ok ? 0 : 1);
} catch (error) {
  console.log(`request failed: ${error?.cause?.code ?? error?.name ?? ''} ${error?.message ?? error}`);
  process.exit(1);
}
