import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse, isAxiosError } from 'axios';
import { upstreamCallSpan } from '../../tracing/spans.js';
import { UpstreamError } from './upstream-error.js';
import type { UpstreamValidators } from './upstream-validators.js';

/** The most bytes to read of one response, and the setting that says so (named in the failure, so an operator knows what to raise). */
export interface ByteLimit {
  bytes: number;
  setting: 'UPSTREAM_MAX_BYTES' | 'IMAGE_MAX_BYTES';
}

/**
 * How this server asks the upstream, on the event loop (one product, an image) and on a fill's own thread
 * (list-fill.ts) alike: statuses are the caller's to interpret, bodies are read raw, and every failure is
 * an UpstreamError whose message names the URL.
 */
export interface UpstreamClient {
  get(url: string, responseType: 'text' | 'arraybuffer', limit: ByteLimit, config?: AxiosRequestConfig): Promise<AxiosResponse<unknown>>;
  /**
   * `url`'s response once its headers have come, its body read as it arrives (a fill, which never holds the body
   * whole): `chunks` fail as `get` does (the limit named, the time limit, a reset); `discard` closes a body not read.
   */
  stream(url: string, limit: ByteLimit, config?: AxiosRequestConfig): Promise<StreamedResponse>;
  /**
   * Whether what `url` sends is still what these validators describe: a conditional GET whose `304` is
   * 'not-modified' and whose 2xx is 'modified', its body left unread (the connection is closed); any other status
   * is an UpstreamError.
   */
  revalidate(url: string, validators: UpstreamValidators): Promise<'not-modified' | 'modified'>;
}

/** An upstream response whose body is read as it arrives: the head at once, the body in chunks. */
export interface StreamedResponse {
  response: AxiosResponse<unknown>;
  chunks: AsyncIterable<Buffer>;
  discard: () => void;
}

/**
 * Connections open to the upstream (and image hosts) at once, per origin; requests past it queue. Node's own
 * default is unbounded, so an upstream that hangs while load goes on would take a descriptor per request.
 */
const MAX_UPSTREAM_SOCKETS = 32;
/** Idle keep-alive connections kept per origin for the next request; the rest are closed once their response is read. */
const MAX_IDLE_UPSTREAM_SOCKETS = 8;

export function createUpstreamClient(timeoutMs: number): UpstreamClient {
  // One bounded pool per client. A socket silent for the time limit is closed by the agent too, so a connection
  // that hangs is released even by a request that nothing else cuts.
  const pool = { keepAlive: true, maxSockets: MAX_UPSTREAM_SOCKETS, maxFreeSockets: MAX_IDLE_UPSTREAM_SOCKETS, timeout: timeoutMs };
  const client: AxiosInstance = axios.create({
    // Node's http adapter, which alone has maxRedirects and maxContentLength, even where a browser-like
    // XMLHttpRequest exists (the client's component tests run this server inside jsdom).
    adapter: 'http',
    httpAgent: new HttpAgent(pool),
    httpsAgent: new HttpsAgent(pool),
    timeout: timeoutMs,
    validateStatus: () => true,
    maxRedirects: 3,
  });
  const request = async (
    url: string,
    responseType: 'text' | 'arraybuffer' | 'stream',
    limit: ByteLimit,
    config: AxiosRequestConfig,
    signal = AbortSignal.timeout(timeoutMs),
  ) => {
    try {
      // A client span when traces are on, its `traceparent` sent along (tracing/spans.ts); for a stream, until its headers.
      return await upstreamCallSpan(url, (traceHeaders) =>
        client.get<unknown>(url, {
          ...config,
          headers: { ...traceHeaders, ...config.headers },
          responseType,
          maxContentLength: limit.bytes,
          // Keep the raw body: axios would otherwise guess at JSON and hide broken bodies.
          transformResponse: (data: unknown) => data,
          // axios's own `timeout` only notices a silent socket; this bounds the whole exchange, so an upstream
          // that drips bytes forever is cut too.
          signal,
        }),
      );
    } catch (error) {
      throw upstreamFailure(error, url, limit);
    }
  };
  return {
    get: (url, responseType, limit, config = {}) => request(url, responseType, limit, config),
    async stream(url, limit, config = {}) {
      const waits = waitingBudget(timeoutMs);
      const response = await waits.timed(request(url, 'stream', limit, config, waits.signal));
      // Node's adapter resolves to a Readable, the limit enforced on it as it is read.
      const body = response.data as Readable;
      async function* chunks(): AsyncGenerator<Buffer> {
        const reading = body[Symbol.asyncIterator]();
        try {
          for (;;) {
            const next = await waits.timed(reading.next());
            if (next.done === true) return;
            yield next.value as Buffer;
          }
        } catch (error) {
          throw upstreamFailure(error, url, limit);
        } finally {
          // A body left before its end (the reader refused it) is closed.
          await reading.return?.();
        }
      }
      return { response, chunks: chunks(), discard: () => body.destroy() };
    },
    async revalidate(url, validators) {
      let response: AxiosResponse<Readable>;
      try {
        response = await upstreamCallSpan(url, (traceHeaders) =>
          client.get<Readable>(url, { responseType: 'stream', headers: { ...traceHeaders, ...conditionalHeaders(validators) } }),
        );
      } catch (error) {
        throw toUpstreamError(error, url);
      }
      // A changed list's body is the fill's to download, in a process of its own.
      response.data.destroy();
      if (response.status === 304) return 'not-modified';
      // A failing upstream is asked once a refill, as before revalidating: its failure is the refill's.
      if (!isSuccess(response)) throw new UpstreamError(`${url} answered ${response.status}`);
      return 'modified';
    },
  };
}

/** `If-None-Match` and `If-Modified-Since` from what the upstream said of the bytes held. */
export function conditionalHeaders(validators: UpstreamValidators | undefined): Record<string, string> {
  return {
    ...(validators?.etag !== undefined && { 'If-None-Match': validators.etag }),
    ...(validators?.lastModified !== undefined && { 'If-Modified-Since': validators.lastModified }),
  };
}

/** The upstream's `ETag` and `Last-Modified` of a response, if it gave any. */
export function validatorsOf(response: AxiosResponse): UpstreamValidators | undefined {
  const { etag, 'last-modified': lastModified } = response.headers;
  const validators = {
    ...(typeof etag === 'string' && etag !== '' && { etag }),
    ...(typeof lastModified === 'string' && lastModified !== '' && { lastModified }),
  };
  return Object.keys(validators).length === 0 ? undefined : validators;
}

export function isSuccess(response: AxiosResponse): boolean {
  return response.status >= 200 && response.status <= 299;
}

/**
 * The time limit of a streamed response, spent only while waiting on the upstream (for its headers, for each chunk):
 * the reader parses each chunk as it comes, and that time is the fill's, not the upstream's, so a large list parsed
 * on a busy machine is not cut where its download alone would have finished in time. An upstream that stalls or
 * drips still runs the limit out. Past it, `signal` aborts the exchange (axios's cancel: a timeout, as before).
 */
function waitingBudget(timeoutMs: number): { signal: AbortSignal; timed: <T>(waiting: Promise<T>) => Promise<T> } {
  const controller = new AbortController();
  let left = timeoutMs;
  return {
    signal: controller.signal,
    async timed(waiting) {
      const started = performance.now();
      const timer = setTimeout(() => controller.abort(), Math.max(0, left));
      try {
        return await waiting;
      } finally {
        clearTimeout(timer);
        left -= performance.now() - started;
      }
    },
  };
}

/** What went wrong reading `url`, as an UpstreamError: past the limit (naming its setting), timed out, or failed. */
function upstreamFailure(error: unknown, url: string, limit: ByteLimit): UpstreamError {
  if (isAxiosError(error) && /maxContentLength/.test(error.message)) {
    return new UpstreamError(`${url} answered more than ${limit.setting} (${limit.bytes} bytes)`, { cause: error });
  }
  return toUpstreamError(error, url);
}

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ERR_CANCELED']);

function toUpstreamError(error: unknown, url: string): UpstreamError {
  if (!isAxiosError(error)) return new UpstreamError(`${url} failed`, { cause: error });
  const timedOut = TIMEOUT_CODES.has(error.code ?? '');
  const reason = timedOut ? 'timed out' : `failed (${error.code ?? error.message})`;
  return new UpstreamError(`${url} ${reason}`, { timedOut, cause: error });
}
