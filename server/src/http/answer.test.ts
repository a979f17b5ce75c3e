import { describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from './security-headers.js';
import type { EncodedBody } from '../bodies/encoded-body.js';
import { type AnswerRequest, type Answer, httpCachingPolicy, prepareAnswer } from './answer.js';

const POLICY = httpCachingPolicy({ cacheTtlSeconds: 300, staleMaxSeconds: 86400 });

const JSON_ANSWER: Answer = {
  body: { identity: Buffer.from('{"id":1}'), gzip: Buffer.from('gz'), br: Buffer.from('b'), etag: '"abc"' },
  contentType: 'application/json; charset=utf-8',
  cacheStatus: 'HIT',
  ageSeconds: 7,
  freshForSeconds: 293,
};

const REQUEST: AnswerRequest = {
  encoding: 'identity',
  ifNoneMatch: undefined,
  requestId: 'trace-1',
  rateLimit: undefined,
  cors: undefined,
};

/** `[name, value, …]` as pairs, for readable expectations. */
function pairs(headers: string[]): [string, string][] {
  const result: [string, string][] = [];
  for (let index = 0; index < headers.length; index += 2) result.push([headers[index]!, headers[index + 1]!]);
  return result;
}

describe('prepareAnswer', () => {
  it('sends every header of a cached answer in one order: id, security, rate limit, caching, content', () => {
    const prepared = prepareAnswer(
      JSON_ANSWER,
      { ...REQUEST, encoding: 'gzip', rateLimit: { header: '"600-in-1min"; r=599; t=60', policyHeader: '"600-in-1min"; q=600; w=60' } },
      POLICY,
    );
    expect(prepared.status).toBe(200);
    expect(prepared.body).toBe(JSON_ANSWER.body.gzip);
    expect(pairs(prepared.headers)).toEqual([
      ['X-Request-Id', 'trace-1'],
      ...SECURITY_HEADERS,
      ['RateLimit', '"600-in-1min"; r=599; t=60'],
      ['RateLimit-Policy', '"600-in-1min"; q=600; w=60'],
      ['ETag', '"abc-gzip"'],
      ['Cache-Control', 'public, max-age=293, stale-while-revalidate=300, stale-if-error=86400'],
      ['Age', '7'],
      ['X-Cache', 'HIT'],
      ['Vary', 'Accept-Encoding'],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', '2'],
      ['Content-Encoding', 'gzip'],
    ]);
  });

  it('sends the CORS headers after the rate limit, and merges Origin into the Vary it already has', () => {
    const cors = {
      headers: ['Access-Control-Allow-Origin', 'https://app.example.com', 'Access-Control-Expose-Headers', 'ETag'],
      varyOrigin: true,
      resourcePolicy: undefined,
    };
    const json = pairs(prepareAnswer(JSON_ANSWER, { ...REQUEST, cors }, POLICY).headers);
    expect(json.slice(1 + SECURITY_HEADERS.length, 3 + SECURITY_HEADERS.length)).toEqual([
      ['Access-Control-Allow-Origin', 'https://app.example.com'],
      ['Access-Control-Expose-Headers', 'ETag'],
    ]);
    expect(json.filter(([name]) => name === 'Vary')).toEqual([['Vary', 'Accept-Encoding, Origin']]);
    expect(json).toContainEqual(['Cross-Origin-Resource-Policy', 'same-origin']);

    const variant = pairs(prepareAnswer({ ...JSON_ANSWER, vary: 'Accept' }, { ...REQUEST, cors }, POLICY).headers);
    expect(variant.filter(([name]) => name === 'Vary')).toEqual([['Vary', 'Accept, Origin']]);
  });

  it('with any origin, leaves Vary alone and opens the resource policy in its place among the security headers', () => {
    const cors = { headers: ['Access-Control-Allow-Origin', '*'], varyOrigin: false, resourcePolicy: 'cross-origin' } as const;
    const any = pairs(prepareAnswer(JSON_ANSWER, { ...REQUEST, cors }, POLICY).headers);
    expect(any).toContainEqual(['Access-Control-Allow-Origin', '*']);
    expect(any).toContainEqual(['Vary', 'Accept-Encoding']);
    expect(any.slice(1, 1 + SECURITY_HEADERS.length).map(([name]) => name)).toEqual(SECURITY_HEADERS.map(([name]) => name));
    expect(any.filter(([name]) => name === 'Cross-Origin-Resource-Policy')).toEqual([['Cross-Origin-Resource-Policy', 'cross-origin']]);

    const image = pairs(
      prepareAnswer({ ...JSON_ANSWER, contentSecurityPolicy: "default-src 'none'" }, { ...REQUEST, cors }, POLICY).headers,
    );
    expect(image).toContainEqual(['Cross-Origin-Resource-Policy', 'cross-origin']);
    expect(image).toContainEqual(['Content-Security-Policy', "default-src 'none'"]);
  });

  it('gives each encoding its own ETag and bytes, identity without Content-Encoding', () => {
    const identity = prepareAnswer(JSON_ANSWER, REQUEST, POLICY);
    expect(identity.body).toBe(JSON_ANSWER.body.identity);
    expect(pairs(identity.headers)).toContainEqual(['ETag', '"abc"']);
    expect(identity.headers).not.toContain('Content-Encoding');
    const brotli = prepareAnswer(JSON_ANSWER, { ...REQUEST, encoding: 'br' }, POLICY);
    expect(brotli.body).toBe(JSON_ANSWER.body.br);
    expect(pairs(brotli.headers)).toContainEqual(['ETag', '"abc-br"']);
    expect(pairs(brotli.headers)).toContainEqual(['Content-Encoding', 'br']);
  });

  it.each(['"abc"', '"abc-gzip"', 'W/"abc-br"', '"x", "abc"', '*'])('answers 304 without content headers for If-None-Match: %s', (tag) => {
    const prepared = prepareAnswer(JSON_ANSWER, { ...REQUEST, encoding: 'br', ifNoneMatch: tag }, POLICY);
    expect(prepared.status).toBe(304);
    expect(prepared.body).toBeUndefined();
    const names = pairs(prepared.headers).map(([name]) => name);
    expect(names).toContain('ETag');
    expect(names).not.toContain('Content-Type');
    expect(names).not.toContain('Content-Length');
  });

  it('answers 200 when no tag matches', () => {
    expect(prepareAnswer(JSON_ANSWER, { ...REQUEST, ifNoneMatch: '"abd", "abc-deflate"' }, POLICY).status).toBe(200);
  });

  it('sends identity bytes when the entry has no compressed forms, and the Vary the entry names', () => {
    const image: Answer = {
      ...JSON_ANSWER,
      body: { identity: Buffer.from([0xff, 0xd8]), etag: '"img"' },
      contentType: 'image/webp',
      vary: 'Accept, Accept-Encoding',
    };
    const prepared = prepareAnswer(image, { ...REQUEST, encoding: 'br' }, POLICY);
    expect(prepared.body).toBe(image.body.identity);
    const headers = pairs(prepared.headers);
    expect(headers).toContainEqual(['ETag', '"img"']);
    expect(headers).toContainEqual(['Vary', 'Accept, Accept-Encoding']);
    expect(headers).toContainEqual(['Content-Type', 'image/webp']);
    expect(headers.map(([name]) => name)).not.toContain('Content-Encoding');
  });

  it('lets an entry set its own Cache-Control and Content-Security-Policy in place of the site’s', () => {
    const image: Answer = {
      ...JSON_ANSWER,
      body: { identity: Buffer.from([0xff, 0xd8]), etag: '"img"' },
      contentType: 'image/avif',
      cacheControl: 'public, max-age=86400',
      contentSecurityPolicy: "default-src 'none'; sandbox",
    };
    const headers = pairs(prepareAnswer(image, REQUEST, POLICY).headers);
    expect(headers.filter(([name]) => name === 'Cache-Control')).toEqual([['Cache-Control', 'public, max-age=86400']]);
    expect(headers.filter(([name]) => name === 'Content-Security-Policy')).toEqual([
      ['Content-Security-Policy', "default-src 'none'; sandbox"],
    ]);
    // Every other security header is still sent, in its place, with the site's value.
    expect(headers.slice(1, 1 + SECURITY_HEADERS.length)).toEqual(
      SECURITY_HEADERS.map(([name, value]) => [name, name === 'Content-Security-Policy' ? image.contentSecurityPolicy : value]),
    );
    // The same entry for a request with CORS for any origin opens the resource policy, and only for that request.
    const cors = { headers: ['Access-Control-Allow-Origin', '*'], varyOrigin: false, resourcePolicy: 'cross-origin' } as const;
    expect(pairs(prepareAnswer(image, { ...REQUEST, cors }, POLICY).headers)).toContainEqual([
      'Cross-Origin-Resource-Policy',
      'cross-origin',
    ]);
    expect(pairs(prepareAnswer(image, REQUEST, POLICY).headers)).toContainEqual(['Cross-Origin-Resource-Policy', 'same-origin']);
  });

  it('writes each request’s own id, rate limit, freshness and age into a head made once per body', () => {
    const limit = (remaining: number) => ({ header: `"600-in-1min"; r=${remaining}; t=60`, policyHeader: '"600-in-1min"; q=600; w=60' });
    const first = prepareAnswer(JSON_ANSWER, { ...REQUEST, requestId: 'one', rateLimit: limit(599) }, POLICY);
    const second = prepareAnswer(
      { ...JSON_ANSWER, ageSeconds: 8, freshForSeconds: 292 },
      { ...REQUEST, requestId: 'two', rateLimit: limit(598) },
      POLICY,
    );
    expect(pairs(first.headers)).toContainEqual(['X-Request-Id', 'one']);
    expect(pairs(first.headers)).toContainEqual(['RateLimit', '"600-in-1min"; r=599; t=60']);
    expect(pairs(first.headers)).toContainEqual(['Age', '7']);
    expect(pairs(first.headers)).toContainEqual(['Cache-Control', 'public, max-age=293, stale-while-revalidate=300, stale-if-error=86400']);
    expect(pairs(second.headers)).toContainEqual(['X-Request-Id', 'two']);
    expect(pairs(second.headers)).toContainEqual(['RateLimit', '"600-in-1min"; r=598; t=60']);
    expect(pairs(second.headers)).toContainEqual(['Age', '8']);
    expect(pairs(second.headers)).toContainEqual([
      'Cache-Control',
      'public, max-age=292, stale-while-revalidate=300, stale-if-error=86400',
    ]);
    // The same body under another policy (another server in the process) gets that policy's Cache-Control.
    const other = prepareAnswer(JSON_ANSWER, REQUEST, httpCachingPolicy({ cacheTtlSeconds: 1, staleMaxSeconds: 2 }));
    expect(pairs(other.headers)).toContainEqual(['Cache-Control', 'public, max-age=293, stale-while-revalidate=1, stale-if-error=2']);
  });

  it('gives the same inputs equal answers, and shares nothing it hands out', () => {
    const first = prepareAnswer(JSON_ANSWER, REQUEST, POLICY);
    const second = prepareAnswer(JSON_ANSWER, REQUEST, POLICY);
    expect(second).toEqual(first);
    expect(second.headers).not.toBe(first.headers);
    first.headers.push('X-Changed', 'yes');
    expect(prepareAnswer(JSON_ANSWER, REQUEST, POLICY)).toEqual(second);
  });

  it('keeps what it works out for a body on that body, so another body never gets its heads', () => {
    const body: EncodedBody = { identity: Buffer.from('[1]'), etag: '"one"' };
    const refilled = { identity: Buffer.from('[2]'), etag: '"two"' };
    prepareAnswer({ ...JSON_ANSWER, body }, REQUEST, POLICY);
    expect(body.heads?.tags).toEqual(['"one"', '"one-gzip"', '"one-br"']);
    const second = prepareAnswer({ ...JSON_ANSWER, body: refilled }, { ...REQUEST, ifNoneMatch: '"one"' }, POLICY);
    expect(second.status).toBe(200);
    expect(pairs(second.headers)).toContainEqual(['ETag', '"two"']);
    expect(pairs(second.headers)).toContainEqual(['Content-Length', '3']);
  });
});
