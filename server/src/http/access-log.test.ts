import { Writable } from 'node:stream';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { type AccessRecord, logAccess } from './access-log.js';
import { createLogger } from '../logger.js';

let site: TestSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('the access log', () => {
  it('gives every request an id, reusing a well-formed incoming one', async () => {
    site = await startTestSite();
    const fresh = await request(site.server).get('/healthz');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const reused = await request(site.server).get('/healthz').set('X-Request-Id', 'edge-42');
    expect(reused.headers['x-request-id']).toBe('edge-42');
    const replaced = await request(site.server).get('/healthz').set('X-Request-Id', 'bad id\twith spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id\twith spaces');
  });

  it('logs each request with its id, status, latency and cache status, but not probes', async () => {
    site = await startTestSite({ config: { LOG_LEVEL: 'info' } });
    await request(site.server).get('/api/products/1').set('X-Request-Id', 'trace-me').expect(200);
    await request(site.server).get('/healthz').expect(200);
    const lines = site.logs.filter((record) => record.msg === 'request completed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      req: { id: 'trace-me', method: 'GET', url: '/api/products/1' },
      res: { statusCode: 200 },
      cache: 'MISS',
    });
    expect(typeof lines[0]?.responseTime).toBe('number');
  });

  it('logs an answer of 5xx as an error', async () => {
    site = await startTestSite({ config: { LOG_LEVEL: 'info' } });
    site.upstream.override('/products', 'status500');
    await request(site.server).get('/api/products').set('X-Request-Id', 'failing').expect(502);
    const line = site.logs.find((record) => record.msg === 'request completed');
    expect(line).toMatchObject({ level: 50, req: { id: 'failing' }, res: { statusCode: 502 } });
  });
});

describe('logAccess', () => {
  /** A logger at `info` whose lines are kept as written, unparsed. */
  function rawLogger() {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    return { logger: createLogger('info', destination), lines };
  }
  const withoutTime = (line: string | undefined) => line?.replace(/"time":\d+/, '"time":0');

  it.each<[string, AccessRecord, ('request completed' | 'request aborted')?]>([
    ['a cache hit', { id: 'trace-1', method: 'GET', url: '/api/products', statusCode: 200, responseTime: 0, cache: 'HIT' }],
    [
      'an answer without X-Cache',
      { id: 'ab12-cd', method: 'HEAD', url: '/products?q=mug', statusCode: 404, responseTime: 12, cache: undefined },
    ],
    ['a 5xx', { id: 'x', method: 'GET', url: '/api/products/1', statusCode: 502, responseTime: 3, cache: undefined }],
    [
      'a hostile URL',
      { id: 'x', method: 'GET', url: '/products?q="</script>\\\u0001é\u2028😀', statusCode: 200, responseTime: 1, cache: 'MISS' },
      'request aborted',
    ],
  ])('writes, for %s, the very line pino would write but for the time', (_case, record, message) => {
    const ours = rawLogger();
    logAccess(ours.logger, record, message);
    const pinos = rawLogger();
    const { id, method, url, statusCode, responseTime, cache } = record;
    pinos.logger[statusCode >= 500 ? 'error' : 'info'](
      { req: { id, method, url }, res: { statusCode }, responseTime, cache },
      message ?? 'request completed',
    );
    expect(ours.lines).toHaveLength(1);
    expect(withoutTime(ours.lines[0])).toBe(withoutTime(pinos.lines[0]));
  });

  it('writes nothing for the probes and the scrape, or below the log level', () => {
    const { logger, lines } = rawLogger();
    for (const url of ['/healthz', '/readyz', '/metrics'])
      logAccess(logger, { id: 'x', method: 'GET', url, statusCode: 200, responseTime: 0, cache: undefined });
    logger.level = 'warn';
    logAccess(logger, { id: 'x', method: 'GET', url: '/', statusCode: 200, responseTime: 0, cache: undefined });
    expect(lines).toEqual([]);
  });
});
