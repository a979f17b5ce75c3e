import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FIXTURE_PRODUCTS } from './fixture-products.js';
import { fakeStoreRoutes, send } from './fake-store-routes.js';

/**
 * The one upstream test double: a real HTTP server shaped like the Fake Store API, for the server tests, the
 * client tests (through test-site.ts), the browser suite and the bench.
 *
 * ```ts
 * const stub = await startUpstreamStub();           // listens on 127.0.0.1, an ephemeral port
 * process.env.PRODUCTS_API_URL = stub.url;           // or pass it in a Config
 * await stub.setMode('status500');                  // every path now answers 500
 * stub.override('/products/3', 'hang');             // …except this one, which never answers
 * stub.override('/products', 'status500', { times: 1 }); // …and this one fails once, then answers normally
 * stub.requestCount('/products');                   // requests seen on that path
 * stub.releaseHangingRequests();                    // answers what `hang` held, in the mode now in force
 * await stub.close();                               // also destroys hanging sockets
 * ```
 *
 * In `normal` mode it answers as the Fake Store API does (fake-store-routes.ts: the list, a product, images and
 * photos, with their validators and `304`s); this file is the steering: modes, overrides, counts, held requests.
 */
export interface UpstreamStub {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly mode: StubMode;
  /** Changes how every path answers. `refuse` closes the listener; leaving it listens again on the same port. */
  setMode(mode: StubMode): Promise<void>;
  /**
   * Makes one path (exact pathname, e.g. `/products/3`) answer in its own way, whatever the global mode: in one
   * of the modes, or with a canned answer such as `{ status: 200, body: '{"title":"no id"}' }`; for the next
   * `times` requests only, if given, then as before.
   */
  override(path: string, answer: PathMode | CannedAnswer, options?: { times?: number }): void;
  clearOverrides(): void;
  /** Replaces the products served from now on. */
  setProducts(products: readonly unknown[]): void;
  /** Requests received on one pathname, or on all paths when none is given. */
  requestCount(path?: string): number;
  /** Conditional requests answered `304 Not Modified`, on one pathname or on all. */
  notModifiedCount(path?: string): number;
  /** Client connections open right now (hanging ones included). */
  openConnections(): number;
  /** The most client connections open at once since the start (or the last resetCounts). */
  peakConnections(): number;
  /** Every pathname requested since the start (or the last resetCounts), each once. */
  requestedPaths(): string[];
  resetCounts(): void;
  /** Resolves once `count` requests have arrived on `path` (at once if they already have). */
  waitForRequests(path: string, count: number): Promise<void>;
  /** Cuts the connections of requests held by `hang`, so whoever waits on them fails now. */
  dropHangingRequests(): void;
  /**
   * Answers the requests held by `hang` as the current mode says (set `normal` first to let them succeed), so
   * a test can gather any number of waiters behind one upstream request and then decide when it lands.
   */
  releaseHangingRequests(): void;
  close(): Promise<void>;
}

export type StubMode =
  | 'normal'
  /** Answers normally after `slowDelayMs`. */
  | 'slow'
  /** Accepts the request and never answers. */
  | 'hang'
  /** Connection refused: nothing listens on the port. */
  | 'refuse'
  /** Accepts the request, then resets the connection. */
  | 'reset'
  | 'status500'
  /** `200` with an HTML error page, as CDNs in front of an API send. */
  | 'html'
  /** `200` with truncated JSON. */
  | 'badJson'
  /** `200` and the first half of the list's body (whatever the path), then the connection is cut. */
  | 'cutMidBody'
  /** `200` and the first half of the list's body (whatever the path), then nothing until the client gives up. */
  | 'stallMidBody'
  /** `200` with the body `null`. */
  | 'null'
  /** `200` with an empty body. */
  | 'empty'
  /** `404`. */
  | 'notFound';

/** Every mode that one path can take on its own (refusing works only for the whole listener). */
export type PathMode = Exclude<StubMode, 'refuse'>;

/** A fixed answer for one path. `contentType` defaults to `application/json`. */
export interface CannedAnswer {
  status: number;
  body: string | Buffer;
  contentType?: string;
  /** More headers, e.g. `{ Location: '…' }` with a 302. */
  headers?: Record<string, string>;
}

export interface UpstreamStubOptions {
  /** Fake-Store-shaped products (deliberately `unknown`, so tests can serve malformed ones). Default: FIXTURE_PRODUCTS. */
  products?: readonly unknown[];
  /** Delay of the `slow` mode. Default 200 ms. */
  slowDelayMs?: number;
  host?: string;
  port?: number;
  /**
   * Give every product a real photo: its `image` becomes `/photos/<id>.jpg`, a photo-like JPEG of the real
   * upstream's sizes (testing/src/photos.ts). `/photos/<id>.jpg` is served whatever this says.
   */
  photos?: boolean;
  /** The origin that image paths (`/images/1.png`, `/photos/1.jpg`) are made absolute on. Default: the double's own. */
  imageOrigin?: string;
}

const HTML_ERROR_PAGE = '<!DOCTYPE html><html><head><title>522</title></head><body>Connection timed out</body></html>';

export async function startUpstreamStub(options: UpstreamStubOptions = {}): Promise<UpstreamStub> {
  const host = options.host ?? '127.0.0.1';
  const slowDelayMs = options.slowDelayMs ?? 200;
  let mode: StubMode = 'normal';
  const overrides = new Map<string, { answer: PathMode | CannedAnswer; remaining: number }>();
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  let peakSockets = 0;
  const timers = new Set<NodeJS.Timeout>();
  const hanging = new Map<IncomingMessage, { path: string; res: ServerResponse }>();
  const waiters = new Set<{ path: string; count: number; resolve: () => void }>();
  const fakeStore = fakeStoreRoutes({
    products: options.products ?? FIXTURE_PRODUCTS,
    photos: options.photos ?? false,
    imageOrigin: () => options.imageOrigin ?? stub.url,
    hold,
  });

  function notifyWaiters(): void {
    for (const waiter of waiters) {
      if ((counts.get(waiter.path) ?? 0) >= waiter.count) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stub').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    notifyWaiters();
    const override = overrides.get(path);
    if (override !== undefined && --override.remaining === 0) overrides.delete(path);
    const canned = override?.answer;
    if (typeof canned === 'object') return send(res, canned.status, canned.contentType ?? 'application/json', canned.body, canned.headers);
    answer(canned ?? (mode === 'refuse' ? 'normal' : mode), path, req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    peakSockets = Math.max(peakSockets, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });

  function answer(pathMode: PathMode, path: string, req: IncomingMessage, res: ServerResponse): void {
    switch (pathMode) {
      case 'normal':
        return fakeStore.answer(path, req, res);
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          fakeStore.answer(path, req, res);
        }, slowDelayMs);
        timers.add(timer);
        return;
      }
      case 'hang':
        return hold(path, req, res);
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'status500':
        return send(res, 500, 'application/json', '{"message":"Internal Server Error"}');
      case 'html':
        return send(res, 200, 'text/html; charset=utf-8', HTML_ERROR_PAGE);
      case 'badJson':
        return send(res, 200, 'application/json', '{"id":1,"title":"Fjallraven');
      case 'cutMidBody':
      case 'stallMidBody': {
        const body = fakeStore.listBody();
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
        res.write(body.subarray(0, body.length >> 1), () => {
          if (pathMode === 'cutMidBody') req.socket.destroy();
        });
        return;
      }
      case 'null':
        return send(res, 200, 'application/json', 'null');
      case 'empty':
        return send(res, 200, 'application/json', '');
      case 'notFound':
        return send(res, 404, 'text/plain', 'Not Found');
    }
  }

  /** Never answers; the connection stays open until the client gives up, dropHangingRequests() or close(). */
  function hold(path: string, req: IncomingMessage, res: ServerResponse): void {
    hanging.set(req, { path, res });
    req.socket.on('close', () => hanging.delete(req));
  }

  function listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  function stopListening(): Promise<void> {
    return new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.close(() => resolve());
    });
  }

  const port = await listen(options.port ?? 0);
  const stub: UpstreamStub = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    get mode() {
      return mode;
    },
    async setMode(next) {
      const wasRefusing = mode === 'refuse';
      mode = next;
      if (next === 'refuse' && !wasRefusing) await stopListening();
      if (next !== 'refuse' && wasRefusing) await listen(port);
    },
    override(path, answer, { times = Infinity } = {}) {
      overrides.set(path, { answer, remaining: times });
    },
    clearOverrides() {
      overrides.clear();
    },
    setProducts: (next) => fakeStore.setProducts(next),
    requestedPaths() {
      return [...counts.keys()];
    },
    requestCount(path) {
      if (path !== undefined) return counts.get(path) ?? 0;
      let total = 0;
      for (const count of counts.values()) total += count;
      return total;
    },
    notModifiedCount: (path) => fakeStore.notModifiedCount(path),
    openConnections() {
      return sockets.size;
    },
    peakConnections() {
      return peakSockets;
    },
    resetCounts() {
      counts.clear();
      fakeStore.resetCounts();
      peakSockets = sockets.size;
    },
    waitForRequests(path, count) {
      return new Promise((resolve) => {
        waiters.add({ path, count, resolve });
        notifyWaiters();
      });
    },
    dropHangingRequests() {
      for (const req of hanging.keys()) req.socket.destroy();
      hanging.clear();
    },
    releaseHangingRequests() {
      const held = [...hanging];
      hanging.clear();
      for (const [req, { path, res }] of held) answer(mode === 'refuse' ? 'normal' : mode, path, req, res);
    },
    async close() {
      if (mode !== 'refuse') await stopListening();
    },
  };
  return stub;
}
