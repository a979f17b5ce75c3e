import { MessageChannel } from 'node:worker_threads';
import type { Product } from '@catalogue/shared/product';
import { Piscina } from 'piscina';
import type { EncodedBody } from '../http/encoded-body.js';
import type { ListChunkMessage, ListEndMessage, ListFillResult, ListFillTask } from './list-fill-worker.js';
import type { PreparedList } from './prepared-list.js';

/** A list filled off the event loop, with the body and index the worker made for it. */
export interface FilledList {
  products: Product[];
  prepared: PreparedList;
  dropped: ListEndMessage['dropped'];
}

/**
 * Products per message from the worker. Copying a message in costs the main thread about 1 ms per 1,000 products
 * on the bench machine, so a chunk stays far below the event loop's budget of a few milliseconds per turn.
 */
const CHUNK_SIZE = 1_000;

/**
 * A pool of one worker thread: fills of the list are rare (once per TTL, one at a time per key, read-through-cache.ts)
 * and a second thread would only compete with the event loop for the machine's cores. An idle thread exits after a
 * while, so its heap (several times the list's size while it parses) is given back between fills.
 */
export interface ListFillPool {
  /**
   * Downloads, parses, validates, indexes and encodes the upstream's list; `ok: false` with the message of the
   * UpstreamError to throw when the upstream failed (refused, timed out, past UPSTREAM_MAX_BYTES, not a JSON array).
   */
  fill(
    request: Pick<ListFillTask, 'url' | 'timeoutMs' | 'maxBytes'>,
  ): Promise<{ ok: true; list: FilledList } | Exclude<ListFillResult, { ok: true }>>;
  close(): Promise<void>;
}

/**
 * The worker runs the built JavaScript next to this file; when the server itself runs from its TypeScript sources
 * (the tests), the worker runs its source through tsx, with the workspaces' `source` condition as Vitest has it.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_FILE = new URL(FROM_SOURCE ? './list-fill-worker.ts' : './list-fill-worker.js', import.meta.url).href;
const IDLE_THREAD_MS = 15_000;

export function createListFillPool(): ListFillPool {
  const pool = new Piscina<ListFillTask, ListFillResult>({
    filename: WORKER_FILE,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: IDLE_THREAD_MS,
    ...(FROM_SOURCE && { execArgv: ['--conditions=source', '--import', 'tsx'] }),
  });

  return {
    async fill(request) {
      const { port1, port2 } = new MessageChannel();
      const products: Product[] = [];
      const lowerTitles: string[] = [];
      // A body that is a list ends with the end message; one that is not posts nothing, and the task says why.
      const ended = new Promise<ListEndMessage>((resolve) => {
        port1.on('message', (message: ListChunkMessage | ListEndMessage) => {
          if (message.kind === 'end') return resolve(message);
          products.push(...message.products);
          lowerTitles.push(...message.lowerTitles);
        });
      });
      try {
        const result = await pool.run({ ...request, port: port2, chunkSize: CHUNK_SIZE }, { transferList: [port2] });
        if (!result.ok) return result;
        const end = await ended;
        return {
          ok: true,
          list: {
            products,
            prepared: { body: asBuffers(end.body), index: { lowerTitles, orders: end.orders } },
            dropped: end.dropped,
          },
        };
      } finally {
        port1.close();
      }
    },
    close: () => pool.destroy(),
  };
}

/** Buffers arrive from another thread as plain Uint8Arrays: the same memory, viewed as Buffers again. */
function asBuffers(body: EncodedBody): EncodedBody {
  const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    identity: view(body.identity),
    etag: body.etag,
    ...(body.gzip && { gzip: view(body.gzip) }),
    ...(body.br && { br: view(body.br) }),
  };
}
