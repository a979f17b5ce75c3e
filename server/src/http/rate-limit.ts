import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
import { MESSAGES } from '@catalogue/shared/messages';
import type { NextFunction, RequestHandler, Response } from 'express';
import type { Config } from '../config.js';
import { requestContextOf } from './request-context.js';
import type { SharedRateCounter } from './redis-rate-counter.js';

/** The length of a client's window: RATE_LIMIT_PER_MINUTE is per minute. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** One request counted against its client's budget. */
export interface RateLimitVerdict {
  allowed: boolean;
  /** The IETF `RateLimit` header for this answer: `"600-in-1min"; r=<remaining>; t=<seconds to reset>`. */
  header: string;
  resetSeconds: number;
}

export interface ApiRateLimit {
  /** The IETF `RateLimit-Policy` header, the same on every answer. */
  readonly policyHeader: string;
  /**
   * Counts one request from this request's client. Synchronous when the count is this process's own, so a cache
   * hit (response-cache.ts) does not wait; a promise with a shared store (REDIS_URL), settled within the store's
   * time limit and never rejected.
   */
  consume(req: IncomingMessage): RateLimitVerdict | Promise<RateLimitVerdict>;
  /**
   * For Express: counts the request, puts its RateLimit headers in its RequestContext (request-context.ts; the
   * writer sends them), and answers a JSON 429 past the limit.
   */
  readonly middleware: RequestHandler;
  /** Lets go of the shared store's connection, if any. */
  close(): Promise<void>;
}

/**
 * At most RATE_LIMIT_PER_MINUTE API requests per client address per fixed one-minute window (starting at the
 * client's first request). With a shared store (Redis, REDIS_URL) the window is the whole site's: every replica
 * counts into it. Without one, or while the store cannot answer, the replica counts in its own memory (behind N
 * replicas a client then gets up to N times as many). `null` when the limit is 0 (off).
 *
 * The decision and the headers are ours (docs/decisions/rate-limiter.md): the response cache in front of Express
 * counts against the same budget and sends the same headers, and without a store it must not wait for a promise.
 */
export function createApiRateLimit(
  { rateLimitPerMinute: limit, trustProxy }: Pick<Config, 'rateLimitPerMinute' | 'trustProxy'>,
  now: () => number = Date.now,
  shared?: SharedRateCounter,
): ApiRateLimit | null {
  if (limit === 0) return null;
  const name = `"${limit}-in-1min"`;
  const policyHeader = `${name}; q=${limit}; w=${RATE_LIMIT_WINDOW_MS / 1000}`;

  // Two generations, swapped once a window has passed: a client not seen for two windows is forgotten, so
  // memory stays bounded by the clients of the last two minutes without a timer.
  type Windows = Map<string, { count: number; resetAt: number }>;
  let current: Windows = new Map();
  let previous: Windows = new Map();
  let rotateAt = now() + RATE_LIMIT_WINDOW_MS;

  function verdict(count: number, msLeft: number): RateLimitVerdict {
    const resetSeconds = Math.max(1, Math.ceil(msLeft / 1000));
    return { allowed: count <= limit, header: `${name}; r=${Math.max(0, limit - count)}; t=${resetSeconds}`, resetSeconds };
  }

  function countHere(key: string): RateLimitVerdict {
    const time = now();
    if (time >= rotateAt) {
      previous = time >= rotateAt + RATE_LIMIT_WINDOW_MS ? (new Map() as Windows) : current;
      current = new Map() as Windows;
      rotateAt = time + RATE_LIMIT_WINDOW_MS;
    }
    let window = current.get(key);
    if (window === undefined) {
      window = previous.get(key);
      if (window !== undefined) current.set(key, window);
    }
    if (window === undefined || window.resetAt <= time) {
      window = { count: 0, resetAt: time + RATE_LIMIT_WINDOW_MS };
      current.set(key, window);
    }
    window.count += 1;
    return verdict(window.count, window.resetAt - time);
  }

  function consume(req: IncomingMessage): RateLimitVerdict | Promise<RateLimitVerdict> {
    const key = clientKey(req, trustProxy);
    if (shared === undefined) return countHere(key);
    return shared.count(key).then((counted) => (counted === undefined ? countHere(key) : verdict(counted.count, counted.msLeft)));
  }

  function answer(result: RateLimitVerdict, res: Response, next: NextFunction): void {
    requestContextOf(res).rateLimit = { header: result.header, policyHeader };
    if (result.allowed) {
      next();
      return;
    }
    res
      .status(429)
      .set({ 'Retry-After': String(result.resetSeconds), 'Cache-Control': 'no-store' })
      .json({ error: MESSAGES.tooManyRequests });
  }

  return {
    policyHeader,
    consume,
    middleware: (req, res, next) => {
      const result = consume(req);
      if (result instanceof Promise) void result.then((settled) => answer(settled, res, next));
      else answer(result, res, next);
    },
    close: async () => shared?.close(),
  };
}

/**
 * Whose budget a request counts against: the socket's address, or with TRUST_PROXY the address the one
 * trusted load balancer saw (the right-most X-Forwarded-For entry; the ones before it are whatever the client
 * wrote). IPv6 clients are counted per /56, the smallest block a provider usually hands out, so a client
 * cannot get a fresh budget by picking another address of its own /64.
 */
export function clientKey(req: IncomingMessage, trustProxy: boolean): string {
  let address = req.socket.remoteAddress ?? '';
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  if (typeof forwarded === 'string') {
    const last = forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
    if (last !== '') address = last;
  }
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice('::ffff:'.length);
  // An IPv4 address has no colon: most requests skip isIPv6's long regular expression.
  return address.includes(':') && isIPv6(address) ? ipv6Block56(address) : address;
}

function ipv6Block56(address: string): string {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 address (`::1.2.3.4`) takes the room of two groups.
  const tailSize = tailGroups.length + (tailGroups.at(-1)?.includes('.') ? 1 : 0);
  const groups = [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailSize)).fill('0'), ...tailGroups];
  const [a = '0', b = '0', c = '0', d = '0'] = groups.map((group) => (group.includes('.') ? '0' : group));
  const hex = (group: string, mask = 0xffff) => (Number.parseInt(group, 16) & mask).toString(16);
  return `${hex(a)}:${hex(b)}:${hex(c)}:${hex(d, 0xff00)}::/56`;
}
