import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type AccessRecord, createLogger, logAccess } from './logger.js';

/**
 * The access line as operators' log pipelines parse it (docs/operations.md, "Logs"), spelt out byte for byte:
 * whoever writes it, and however, these are the bytes. Only the time varies.
 */
/** A logger whose lines are kept as written, unparsed. */
function rawLines(level: 'info' | 'debug' | 'warn' = 'info') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger(level, destination), lines };
}

describe('the access line, byte for byte', () => {
  it.each<[string, AccessRecord, 'request completed' | 'request aborted' | undefined, string]>([
    [
      'a cache hit',
      { id: 'trace-1', method: 'GET', url: '/api/products', statusCode: 200, responseTime: 0, cache: 'HIT' },
      undefined,
      '{"level":30,"time":0,"service":"catalogue-server","req":{"id":"trace-1","method":"GET","url":"/api/products"},"res":{"statusCode":200},"responseTime":0,"cache":"HIT","msg":"request completed"}\n',
    ],
    [
      'an answer without X-Cache',
      { id: 'ab12-cd', method: 'HEAD', url: '/products?q=mug', statusCode: 404, responseTime: 12, cache: undefined },
      'request completed',
      '{"level":30,"time":0,"service":"catalogue-server","req":{"id":"ab12-cd","method":"HEAD","url":"/products?q=mug"},"res":{"statusCode":404},"responseTime":12,"msg":"request completed"}\n',
    ],
    [
      'a 5xx, logged as an error',
      {
        id: '0b5e7a2c-8d7f-4f7e-9c55-1f7d0c6f9a10',
        method: 'GET',
        url: '/api/products/1',
        statusCode: 502,
        responseTime: 3,
        cache: 'STALE',
      },
      undefined,
      '{"level":50,"time":0,"service":"catalogue-server","req":{"id":"0b5e7a2c-8d7f-4f7e-9c55-1f7d0c6f9a10","method":"GET","url":"/api/products/1"},"res":{"statusCode":502},"responseTime":3,"cache":"STALE","msg":"request completed"}\n',
    ],
    [
      'a hostile URL, aborted',
      { id: 'x', method: 'GET', url: '/products?q="</script>\\\u0001é\u2028😀', statusCode: 200, responseTime: 1, cache: 'MISS' },
      'request aborted',
      '{"level":30,"time":0,"service":"catalogue-server","req":{"id":"x","method":"GET","url":"/products?q=\\"</script>\\\\\\u0001é\u2028😀"},"res":{"statusCode":200},"responseTime":1,"cache":"MISS","msg":"request aborted"}\n',
    ],
  ])('%s', (_case, record, message, expected) => {
    for (const level of ['info', 'debug'] as const) {
      const { logger, lines } = rawLines(level);
      const before = Date.now();
      logAccess(logger, record, message);
      const after = Date.now();
      expect(lines).toHaveLength(1);
      const time = Number(/"time":(\d+)/.exec(lines[0] ?? '')?.[1]);
      expect(time).toBeGreaterThanOrEqual(before);
      expect(time).toBeLessThanOrEqual(after);
      expect(lines[0]?.replace(/"time":\d+/, '"time":0')).toBe(expected);
    }
  });
});

describe('logAccess', () => {
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
    const ours = rawLines();
    logAccess(ours.logger, record, message);
    const pinos = rawLines();
    const { id, method, url, statusCode, responseTime, cache } = record;
    pinos.logger[statusCode >= 500 ? 'error' : 'info'](
      { req: { id, method, url }, res: { statusCode }, responseTime, cache },
      message ?? 'request completed',
    );
    expect(ours.lines).toHaveLength(1);
    expect(withoutTime(ours.lines[0])).toBe(withoutTime(pinos.lines[0]));
  });

  it('writes nothing for the probes and the scrape, or below the log level', () => {
    const { logger, lines } = rawLines();
    for (const url of ['/healthz', '/readyz', '/metrics'])
      logAccess(logger, { id: 'x', method: 'GET', url, statusCode: 200, responseTime: 0, cache: undefined });
    logger.level = 'warn';
    logAccess(logger, { id: 'x', method: 'GET', url: '/', statusCode: 200, responseTime: 0, cache: undefined });
    expect(lines).toEqual([]);
  });
});
