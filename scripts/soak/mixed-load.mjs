// The soak's load: warmed keys only (the JSON API, server-rendered pages, photo originals and variants in three
// formats), requested at a steady rate from keep-alive connections, each answer's status and time recorded.
import { Agent, request } from 'node:http';

/** What browsers send for an image: each gets a variant of its own format. */
const ACCEPTS = {
  avif: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  webp: 'image/webp,*/*',
  jpeg: '*/*',
};
const WIDTHS = [320, 640];
const JSON_ACCEPT = { accept: 'application/json', 'accept-encoding': 'gzip, br' };
const PAGE_ACCEPT = { accept: 'text/html', 'accept-encoding': 'gzip, br' };

/** Every key the load asks for, by kind: API, page, photo. */
export function soakKeys(products) {
  const categories = [...new Set(products.map((product) => product.category))];
  const api = [
    '/api/products',
    '/api/products?limit=5&sort=desc',
    '/api/products/categories',
    ...categories.map((category) => `/api/products/category/${encodeURIComponent(category)}`),
    ...products.map((product) => `/api/products/${product.id}`),
  ].map((path) => ({ kind: 'api', path, headers: JSON_ACCEPT }));
  const pages = ['/', '/products', ...products.map((product) => `/productdetails/${product.id}`)].map((path) => ({
    kind: 'page',
    path,
    headers: PAGE_ACCEPT,
  }));
  const photos = products.flatMap((product) => [
    { kind: 'photo', path: `/api/products/${product.id}/image`, headers: { accept: ACCEPTS.avif } },
    ...WIDTHS.flatMap((width) =>
      Object.values(ACCEPTS).map((accept) => ({
        kind: 'photo',
        path: `/api/products/${product.id}/image?w=${width}`,
        headers: { accept },
      })),
    ),
  ]);
  return [...api, ...pages, ...photos];
}

/** One GET, its body read and dropped; resolves with the status (0 for a network error) and milliseconds. */
export function timedGet(origin, { path, headers }, agent, timeoutMs = 10_000) {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status) => resolve({ status, ms: performance.now() - started });
    const req = request(`${origin}${path}`, { headers, agent, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode));
      res.on('error', () => done(0));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', () => done(0));
    req.end();
  });
}

/** Asks every key once, `rounds` times, a few at a time; resolves with the keys that did not answer 200, and how. */
export async function warm(origin, keys, { rounds = 2, concurrency = 4 } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const failed = new Map();
  for (let round = 0; round < rounds; round += 1) {
    const queue = [...keys];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
          const { status } = await timedGet(origin, key, agent);
          if (status !== 200) failed.set(key, status);
          else failed.delete(key);
        }
      }),
    );
  }
  agent.destroy();
  return [...failed].map(([key, status]) => ({ ...key, status }));
}

/**
 * Requests keys picked in turn from a shuffled list at `rate` per second for `seconds`, at most `maxInFlight` at
 * once (a request that would exceed it is counted as skipped, not queued: a stalled server must show, not be
 * hidden by a slower pace). Resolves with every answer's kind, path, status and time.
 */
export async function runLoad(origin, keys, { rate, seconds, maxInFlight = 64 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: maxInFlight });
  const results = [];
  let inFlight = 0;
  let skipped = 0;
  let next = 0;
  const order = shuffled(keys);
  const pending = new Set();
  const started = performance.now();
  const intervalMs = 1000 / rate;
  for (let sent = 0; performance.now() - started < seconds * 1000; sent += 1) {
    const due = started + sent * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (inFlight >= maxInFlight) {
      skipped += 1;
      continue;
    }
    const key = order[next++ % order.length];
    inFlight += 1;
    const promise = timedGet(origin, key, agent).then(({ status, ms }) => {
      inFlight -= 1;
      pending.delete(promise);
      results.push({ kind: key.kind, path: key.path, accept: key.headers.accept, status, ms });
    });
    pending.add(promise);
  }
  await Promise.all(pending);
  agent.destroy();
  return { results, skipped };
}

function shuffled(items) {
  // A fixed order (a multiplicative step through the list) rather than a random one: the same run every time.
  const step = 7919;
  return items.map((_, index) => items[(index * step) % items.length]);
}
