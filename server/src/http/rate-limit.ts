import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
import { MESSAGES } from '@catalogue/shared/messages';
import type { RequestHandler } from 'express';
import type { Config } from '../config.js';
import { answerContextOf } from './answer-context.js';

const WINDOW_MS = 60_000;

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
   * Counts one request from this request's client. Synchronous, so the response cache in front of Express
   * (response-cache.ts) can ask it too.
   */
  consume(req: IncomingMessage): RateLimitVerdict;
  /**
   * For Express: counts the request, puts its RateLimit headers in its AnswerContext (answer-context.ts; the
   * writer sends them), and answers a JSON 429 past the limit.
   */
  readonly middleware: RequestHandler;
}

/**
 * At most RATE_LIMIT_PER_MINUTE API requests per client address per fixed one-minute window (starting at the
 * client's first request), counted in this process's memory: behind N replicas a client gets up to N times as
 * many. `null` when the limit is 0 (off).
 *
 * Our own rather than express-rate-limit because the response cache in front of Express must count against the
 * same budget, synchronously, and send the same headers: this one is a Map lookup, and its headers do not carry
 * the per-client partition key (a SHA-256 per request) that express-rate-limit's draft-8 policy header had.
 */
export function createApiRateLimit(
  { rateLimitPerMinute: limit, trustProxy }: Pick<Config, 'rateLimitPerMinute' | 'trustProxy'>,
  now: () => number = Date.now,
): ApiRateLimit | null {
  if (limit === 0) return null;
  const name = `"${limit}-in-1min"`;
  const policyHeader = `${name}; q=${limit}; w=${WINDOW_MS / 1000}`;

  // Two generations, swapped once a window has passed: a client not seen for two windows is forgotten, so
  // memory stays bounded by the clients of the last two minutes without a timer.
  type Windows = Map<string, { count: number; resetAt: number }>;
  let current: Windows = new Map();
  let previous: Windows = new Map();
  let rotateAt = now() + WINDOW_MS;

  function consume(req: IncomingMessage): RateLimitVerdict {
    const time = now();
    if (time >= rotateAt) {
      previous = time >= rotateAt + WINDOW_MS ? (new Map() as Windows) : current;
      current = new Map() as Windows;
      rotateAt = time + WINDOW_MS;
    }
    const key = clientKey(req, trustProxy);
    let window = current.get(key);
    if (window === undefined) {
      window = previous.get(key);
      if (window !== undefined) current.set(key, window);
    }
    if (window === undefined || window.resetAt <= time) {
      window = { count: 0, resetAt: time + WINDOW_MS };
      current.set(key, window);
    }
    window.count += 1;
    const resetSeconds = Math.ceil((window.resetAt - time) / 1000);
    return {
      allowed: window.count <= limit,
      header: `${name}; r=${Math.max(0, limit - window.count)}; t=${resetSeconds}`,
      resetSeconds,
    };
  }

  return {
    policyHeader,
    consume,
    middleware: (req, res, next) => {
      const verdict = consume(req);
      answerContextOf(res).rateLimit = { header: verdict.header, policyHeader };
      if (verdict.allowed) {
        next();
        return;
      }
      res
        .status(429)
        .set({ 'Retry-After': String(verdict.resetSeconds), 'Cache-Control': 'no-store' })
        .json({ error: MESSAGES.tooManyRequests });
    },
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
