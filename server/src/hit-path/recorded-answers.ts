import type { ServerResponse } from 'node:http';
import type { BodyEncoding } from '../api/accept-encoding.js';
import type { CachedAnswer } from '../catalogue/cached-catalogue.js';
import type { PreparedBody } from '../catalogue/prepared-body.js';

type HeaderValue = string | number | string[];

/** Node's OutgoingMessage has it (documented there); @types/node declares it only on ClientRequest. */
type WithRawHeaderNames = ServerResponse & { getRawHeaderNames(): string[] };

/**
 * Headers whose value Express computes per request. Everything else Express sent for a cache entry (helmet's
 * security headers, ETag, Vary, content headers, and whatever is added to that path later) is the same for
 * every request of that entry and encoding, so it is replayed as recorded.
 */
const PER_REQUEST = ['x-request-id', 'age', 'cache-control', 'ratelimit'] as const;

/**
 * One answer exactly as Express sent it for one cache entry in one encoding, ready to be sent again by the hit
 * path: the status, every header in Express's order and spelling (Node adds Date, Connection and Keep-Alive
 * itself on both paths), and the very body buffer.
 */
export class RecordedAnswer {
  readonly statusCode: number;
  readonly body: Buffer;
  /** Whether Express sent it through the API rate limit (it carries a `RateLimit` header). */
  readonly rateLimited: boolean;
  readonly #cacheControlFor: (freshForSeconds: number) => string;
  /** `[name, value, …]` for `res.writeHead`, whose per-request slots are overwritten for each replay. */
  readonly #headers: HeaderValue[];
  readonly #slots: Record<(typeof PER_REQUEST)[number], number>;
  // Age and freshness change once a second at most: their strings are kept rather than rebuilt per request.
  #age = -1;
  #fresh = -1;

  constructor(res: ServerResponse, { sent, cacheControlFor }: Pick<SentAnswer, 'sent' | 'cacheControlFor'>) {
    this.statusCode = res.statusCode;
    this.body = sent;
    this.#cacheControlFor = cacheControlFor;
    // The names as spelt when set (getHeaderNames would lower-case them), in the order Node sends them.
    this.#headers = (res as WithRawHeaderNames).getRawHeaderNames().flatMap((name) => [name, res.getHeader(name) ?? '']);
    const names = this.#headers.filter((_, index) => index % 2 === 0).map((name) => String(name).toLowerCase());
    const slotOf = (name: string) => {
      const index = names.indexOf(name);
      return index === -1 ? -1 : index * 2 + 1;
    };
    this.#slots = {
      'x-request-id': slotOf('x-request-id'),
      age: slotOf('age'),
      'cache-control': slotOf('cache-control'),
      ratelimit: slotOf('ratelimit'),
    };
    this.rateLimited = this.#slots.ratelimit !== -1;
  }

  /**
   * The recorded headers with this request's values in place, as Express would compute them for `answer` now.
   * The array is shared and only valid until the next call: hand it straight to `res.writeHead`, which copies
   * it out synchronously.
   */
  headersFor(requestId: string, answer: CachedAnswer<unknown>, rateLimitHeader: string | undefined): HeaderValue[] {
    const headers = this.#headers;
    const slots = this.#slots;
    if (slots['x-request-id'] !== -1) headers[slots['x-request-id']] = requestId;
    if (slots.age !== -1 && answer.ageSeconds !== this.#age) {
      this.#age = answer.ageSeconds;
      headers[slots.age] = String(answer.ageSeconds);
    }
    if (slots['cache-control'] !== -1 && answer.freshForSeconds !== this.#fresh) {
      this.#fresh = answer.freshForSeconds;
      headers[slots['cache-control']] = this.#cacheControlFor(answer.freshForSeconds);
    }
    if (slots.ratelimit !== -1 && rateLimitHeader !== undefined) headers[slots.ratelimit] = rateLimitHeader;
    return headers;
  }
}

/**
 * Recordings by prepared body, i.e. by cache entry: a refill prepares a new body, so a recording can never
 * outlive the entry it was taken from, and it is dropped with it.
 */
const recordings = new WeakMap<PreparedBody, Partial<Record<BodyEncoding, RecordedAnswer>>>();

export interface SentAnswer {
  /** The cache entry's prepared body, which keys the recording. */
  body: PreparedBody;
  encoding: BodyEncoding;
  /** The bytes sent (one of `body`'s). */
  sent: Buffer;
  /** How the sender words `Cache-Control` for a given freshness, so a replay words it the same way. */
  cacheControlFor: (freshForSeconds: number) => string;
}

/** Records what Express has just sent whole for a cache entry, unless that entry and encoding already have one. */
export function recordAnswer(res: ServerResponse, { body, encoding, ...answer }: SentAnswer): void {
  let byEncoding = recordings.get(body);
  if (byEncoding === undefined) {
    byEncoding = {};
    recordings.set(body, byEncoding);
  }
  byEncoding[encoding] ??= new RecordedAnswer(res, answer);
}

export function recordedAnswer(body: PreparedBody, encoding: BodyEncoding): RecordedAnswer | undefined {
  return recordings.get(body)?.[encoding];
}
