import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createTestClock } from '@catalogue/testing/test-clock';
import { clientKey, createApiRateLimit } from './rate-limit.js';

/** The two things the limit reads of a request: its socket's address and X-Forwarded-For. */
function requestFrom(remoteAddress: string, forwardedFor?: string): IncomingMessage {
  return {
    socket: { remoteAddress },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as IncomingMessage;
}

function limitOf(perMinute: number, trustProxy = false) {
  const clock = createTestClock();
  const limit = createApiRateLimit({ rateLimitPerMinute: perMinute, trustProxy }, clock.now);
  if (limit === null) throw new Error('expected a limit');
  return { clock, limit };
}

describe('createApiRateLimit', () => {
  it('is off at 0', () => {
    expect(createApiRateLimit({ rateLimitPerMinute: 0, trustProxy: false })).toBeNull();
  });

  it('allows the limit per client in a window that starts at its first request, with the IETF headers', () => {
    const { clock, limit } = limitOf(2);
    const client = requestFrom('198.51.100.7');
    expect(limit.policyHeader).toBe('"2-in-1min"; q=2; w=60');
    expect(limit.consume(client)).toEqual({ allowed: true, header: '"2-in-1min"; r=1; t=60', resetSeconds: 60 });
    clock.advanceSeconds(20.5);
    expect(limit.consume(client)).toEqual({ allowed: true, header: '"2-in-1min"; r=0; t=40', resetSeconds: 40 });
    expect(limit.consume(client)).toMatchObject({ allowed: false, header: '"2-in-1min"; r=0; t=40' });
    // Another client has its own budget.
    expect(limit.consume(requestFrom('198.51.100.8')).allowed).toBe(true);
    clock.advanceSeconds(39.5);
    expect(limit.consume(client)).toEqual({ allowed: true, header: '"2-in-1min"; r=1; t=60', resetSeconds: 60 });
  });

  it('keeps a client counted across the swap of its generations, and forgets it after two idle windows', () => {
    const { clock, limit } = limitOf(3);
    const client = requestFrom('198.51.100.7');
    clock.advanceSeconds(50);
    limit.consume(client);
    limit.consume(client);
    // The generations swap at 60 s; the client's window (50 s to 110 s) is still running after it.
    clock.advanceSeconds(30);
    expect(limit.consume(client)).toMatchObject({ allowed: true, header: '"3-in-1min"; r=0; t=30' });
    expect(limit.consume(client).allowed).toBe(false);
    clock.advanceSeconds(300);
    expect(limit.consume(client)).toMatchObject({ allowed: true, header: '"3-in-1min"; r=2; t=60' });
  });
});

describe('clientKey', () => {
  it('is the socket address unless a proxy is trusted, then the right-most X-Forwarded-For entry', () => {
    expect(clientKey(requestFrom('10.0.0.1', '203.0.113.9'), false)).toBe('10.0.0.1');
    expect(clientKey(requestFrom('10.0.0.1', 'spoofed, 203.0.113.9 '), true)).toBe('203.0.113.9');
    expect(clientKey(requestFrom('10.0.0.1', ' '), true)).toBe('10.0.0.1');
    expect(clientKey(requestFrom('10.0.0.1'), true)).toBe('10.0.0.1');
  });

  it('counts IPv4-mapped addresses as IPv4 and IPv6 ones by their /56', () => {
    expect(clientKey(requestFrom('::ffff:192.0.2.1'), false)).toBe('192.0.2.1');
    expect(clientKey(requestFrom('2001:db8:1:2ff:aaaa::1'), false)).toBe('2001:db8:1:200::/56');
    expect(clientKey(requestFrom('2001:0db8:0001:02ab:ffff:ffff:ffff:ffff'), false)).toBe('2001:db8:1:200::/56');
    expect(clientKey(requestFrom('2001:db8:1:3ff::1'), false)).toBe('2001:db8:1:300::/56');
    expect(clientKey(requestFrom('::1'), false)).toBe('0:0:0:0::/56');
    expect(clientKey(requestFrom('fe80::1%eth0'), false)).toBe('fe80:0:0:0::/56');
  });
});
