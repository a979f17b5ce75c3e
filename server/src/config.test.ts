import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { type Config, ConfigError, loadConfig, type LogLevel } from './config.js';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      productsApiUrl: null,
      cacheTtlSeconds: 300,
      upstreamTimeoutMs: 5000,
      staleMaxSeconds: 86400,
      rateLimitPerMinute: 600,
      trustProxy: false,
      logLevel: 'info',
      imageMaxBytes: 5 * 1024 * 1024,
      upstreamMaxBytes: 64 * 1024 * 1024,
      catalogueDataDir: null,
      imageCacheMaxBytes: 32 * 1024 * 1024,
      imageHosts: [],
      redisUrl: null,
      publicUrl: null,
      corsOrigins: '*',
      tracesEndpoint: null,
    });
  });

  it('infers Config from the declarations as the types callers expect (checked by npm run typecheck)', () => {
    expectTypeOf<Config>().toEqualTypeOf<{
      port: number;
      host: string;
      productsApiUrl: string | null;
      cacheTtlSeconds: number;
      upstreamTimeoutMs: number;
      staleMaxSeconds: number;
      rateLimitPerMinute: number;
      trustProxy: boolean;
      logLevel: LogLevel;
      imageMaxBytes: number;
      upstreamMaxBytes: number;
      catalogueDataDir: string | null;
      imageCacheMaxBytes: number;
      imageHosts: string[];
      redisUrl: string | null;
      publicUrl: string | null;
      corsOrigins: '*' | string[];
      tracesEndpoint: string | null;
    }>();
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        HOST: '127.0.0.1',
        PRODUCTS_API_URL: 'https://fakestoreapi.com/',
        CACHE_TTL_SECONDS: '60',
        UPSTREAM_TIMEOUT_MS: '250',
        STALE_MAX_SECONDS: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'silent',
        IMAGE_MAX_BYTES: '1000',
        UPSTREAM_MAX_BYTES: '2000',
        CATALOGUE_DATA_DIR: '/var/lib/catalogue',
        IMAGE_CACHE_MAX_BYTES: '4000',
        IMAGE_HOSTS: 'https://cdn.example.com',
        REDIS_URL: 'redis://:secret@redis:6379/2',
        PUBLIC_URL: 'https://shop.example.com/',
        CORS_ORIGINS: 'https://app.example.com',
      }),
    ).toEqual({
      port: 8080,
      host: '127.0.0.1',
      productsApiUrl: 'https://fakestoreapi.com',
      cacheTtlSeconds: 60,
      upstreamTimeoutMs: 250,
      staleMaxSeconds: 0,
      rateLimitPerMinute: 0,
      trustProxy: true,
      logLevel: 'silent',
      imageMaxBytes: 1000,
      upstreamMaxBytes: 2000,
      catalogueDataDir: '/var/lib/catalogue',
      imageCacheMaxBytes: 4000,
      imageHosts: ['https://cdn.example.com'],
      redisUrl: 'redis://:secret@redis:6379/2',
      publicUrl: 'https://shop.example.com',
      corsOrigins: ['https://app.example.com'],
      tracesEndpoint: null,
    });
  });

  it('treats an empty PRODUCTS_API_URL as the embedded catalogue', () => {
    expect(loadConfig({ PRODUCTS_API_URL: '' }).productsApiUrl).toBeNull();
    expect(loadConfig({ PRODUCTS_API_URL: '   ' }).productsApiUrl).toBeNull();
  });

  it('keeps a path in the base URL', () => {
    expect(loadConfig({ PRODUCTS_API_URL: 'http://localhost:9000/fake/' }).productsApiUrl).toBe('http://localhost:9000/fake');
  });

  it('reads IMAGE_HOSTS as a list of origins', () => {
    expect(
      loadConfig({ IMAGE_HOSTS: ' https://cdn.example.com/ ,http://127.0.0.1:8080,, HTTPS://Images.Example.COM:443' }).imageHosts,
    ).toEqual(['https://cdn.example.com', 'http://127.0.0.1:8080', 'https://images.example.com']);
    expect(loadConfig({ IMAGE_HOSTS: ' , ' }).imageHosts).toEqual([]);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
    [{ PORT: '-1' }, 'PORT must be an integer from 0 to 65535, got "-1"'],
    [{ PORT: '30.5' }, 'PORT must be an integer from 0 to 65535, got "30.5"'],
    [{ PRODUCTS_API_URL: 'example.com' }, 'PRODUCTS_API_URL must be an http(s) URL such as https://fakestoreapi.com, got "example.com"'],
    [
      { PRODUCTS_API_URL: 'ftp://example.com' },
      'PRODUCTS_API_URL must be an http(s) URL such as https://fakestoreapi.com, got "ftp://example.com"',
    ],
    [{ CACHE_TTL_SECONDS: '5m' }, 'CACHE_TTL_SECONDS must be an integer from 0 to 31536000, got "5m"'],
    [{ UPSTREAM_TIMEOUT_MS: '0' }, 'UPSTREAM_TIMEOUT_MS must be an integer from 1 to 600000, got "0"'],
    [{ STALE_MAX_SECONDS: '1e3' }, 'STALE_MAX_SECONDS must be an integer from 0 to 31536000, got "1e3"'],
    [{ RATE_LIMIT_PER_MINUTE: 'lots' }, 'RATE_LIMIT_PER_MINUTE must be an integer from 0 to 1000000, got "lots"'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY must be true or false, got "yes"'],
    [{ IMAGE_MAX_BYTES: '5MB' }, 'IMAGE_MAX_BYTES must be an integer from 1 to 104857600, got "5MB"'],
    [{ IMAGE_MAX_BYTES: '0' }, 'IMAGE_MAX_BYTES must be an integer from 1 to 104857600, got "0"'],
    [{ UPSTREAM_MAX_BYTES: '64MiB' }, 'UPSTREAM_MAX_BYTES must be an integer from 1 to 1073741824, got "64MiB"'],
    [{ CATALOGUE_DATA_DIR: 'data' }, 'CATALOGUE_DATA_DIR must be an absolute path to a writable folder, got "data"'],
    [{ IMAGE_CACHE_MAX_BYTES: '-1' }, 'IMAGE_CACHE_MAX_BYTES must be an integer from 1 to 4294967296, got "-1"'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    [
      { REDIS_URL: 'redis:6379' },
      'REDIS_URL must be a redis:// or rediss:// URL such as redis://redis:6379; the value is not shown, it may hold a password',
    ],
    [
      { REDIS_URL: 'http://redis:6379' },
      'REDIS_URL must be a redis:// or rediss:// URL such as redis://redis:6379; the value is not shown, it may hold a password',
    ],
  ])('rejects %j with one line naming the variable', (env, message) => {
    const error = configError(env);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain('\n');
  });

  it.each([
    'cdn.example.com',
    'ftp://cdn.example.com',
    'https://cdn.example.com/images',
    'https://cdn.example.com/?size=1',
    'https://user:pw@cdn.example.com',
    'https://a.example.com,not a url',
  ])('rejects IMAGE_HOSTS=%j with one line: origins only', (value) => {
    expect(configError({ IMAGE_HOSTS: value }).message).toBe(
      `IMAGE_HOSTS must be comma-separated http(s) origins such as https://cdn.example.com, got ${JSON.stringify(value)}`,
    );
  });

  it('reads PUBLIC_URL as an origin, without a trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'HTTPS://Shop.Example.com:443/' }).publicUrl).toBe('https://shop.example.com');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080' }).publicUrl).toBe('http://10.0.0.5:8080');
  });

  it.each([
    'shop.example.com',
    'ftp://shop.example.com',
    'https://shop.example.com/catalogue',
    'https://shop.example.com/?a=1',
    'https://u:p@shop.example.com',
  ])('rejects PUBLIC_URL=%j with one line: an origin only', (value) => {
    expect(configError({ PUBLIC_URL: value }).message).toBe(
      `PUBLIC_URL must be the http(s) origin the site is reached at, such as https://shop.example.com, got ${JSON.stringify(value)}`,
    );
  });

  it('reads CORS_ORIGINS as * or a list of origins, spelt as browsers send them in Origin', () => {
    expect(loadConfig({ CORS_ORIGINS: ' * ' }).corsOrigins).toBe('*');
    // Empty is unset, as for every variable: the default, any origin.
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).toBe('*');
    expect(
      loadConfig({ CORS_ORIGINS: ' https://App.Example.com/ , http://localhost:5173,,HTTPS://b.example.com:443,' }).corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173', 'https://b.example.com']);
  });

  it.each([
    'app.example.com',
    'ftp://app.example.com',
    'https://app.example.com/path',
    'https://app.example.com/?a=1',
    'https://u:p@app.example.com',
    'null',
    '*,https://app.example.com',
    ' , ',
  ])('rejects CORS_ORIGINS=%j with one line', (value) => {
    expect(configError({ CORS_ORIGINS: value }).message).toBe(
      `CORS_ORIGINS must be * or comma-separated http(s) origins such as https://app.example.com,http://localhost:5173, got ${JSON.stringify(value)}`,
    );
  });
});

describe('REDIS_URL_FILE (a secret handed over as a file, as Swarm and Kubernetes do)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'catalogue-config-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const PASSWORD = 'pa55-w0rd-only-in-the-file';
  const secretFile = (name: string, contents: string) => {
    const path = join(folder, name);
    writeFileSync(path, contents, { mode: 0o600 });
    return path;
  };

  it('reads REDIS_URL from the file, its trailing newline trimmed', () => {
    const path = secretFile('url-newline', `redis://:${PASSWORD}@redis:6379/2\n`);
    expect(loadConfig({ REDIS_URL_FILE: path }).redisUrl).toBe(`redis://:${PASSWORD}@redis:6379/2`);
    const withoutNewline = secretFile('url-bare', `rediss://user:${PASSWORD}@cache.example.com:6380`);
    expect(loadConfig({ REDIS_URL_FILE: withoutNewline }).redisUrl).toBe(`rediss://user:${PASSWORD}@cache.example.com:6380`);
    const crlf = secretFile('url-crlf', `redis://:${PASSWORD}@redis:6379\r\n`);
    expect(loadConfig({ REDIS_URL_FILE: crlf }).redisUrl).toBe(`redis://:${PASSWORD}@redis:6379`);
  });

  it('trims the blanks around the value in the file, as around any value', () => {
    const path = secretFile('url-blanks', `  redis://:${PASSWORD}@redis:6379 \n\n`);
    expect(loadConfig({ REDIS_URL_FILE: path }).redisUrl).toBe(`redis://:${PASSWORD}@redis:6379`);
  });

  it('treats an empty REDIS_URL_FILE as unset, as every variable', () => {
    expect(loadConfig({ REDIS_URL_FILE: '', REDIS_URL: 'redis://redis:6379' }).redisUrl).toBe('redis://redis:6379');
    expect(loadConfig({ REDIS_URL_FILE: ' ' }).redisUrl).toBeNull();
  });

  it('refuses REDIS_URL and REDIS_URL_FILE both set, in one line naming both and neither value', () => {
    const path = secretFile('url-both', `redis://:${PASSWORD}@redis:6379`);
    const { message } = configError({ REDIS_URL: `redis://:${PASSWORD}@other:6379`, REDIS_URL_FILE: path });
    expect(message).toBe('REDIS_URL and REDIS_URL_FILE are both set: set one of them');
  });

  it.each([
    ['a missing file', () => join(folder, 'no-such-file'), 'ENOENT'],
    ['a folder', () => folder, 'EISDIR'],
  ])('refuses %s in one line naming the variable and the path', (_, path, code) => {
    const { message } = configError({ REDIS_URL_FILE: path() });
    expect(message).toBe(`REDIS_URL_FILE: cannot read ${JSON.stringify(path())} (${code})`);
  });

  it('refuses an empty file rather than running without the shared cache', () => {
    const path = secretFile('url-empty', '\n');
    expect(configError({ REDIS_URL_FILE: path }).message).toBe(`REDIS_URL_FILE: ${JSON.stringify(path)} is empty`);
  });

  it.each([
    ['from the file', (url: string) => ({ REDIS_URL_FILE: secretFile('url-bad', `${url}\n`) }), ' (read from REDIS_URL_FILE)'],
    ['from the environment', (url: string) => ({ REDIS_URL: url }), ''],
  ])('never repeats a REDIS_URL it refuses (%s): the password stays out of the log', (_, env, from) => {
    for (const url of [`http://:${PASSWORD}@redis:6379`, `redis//:${PASSWORD}@redis`, `${PASSWORD}`]) {
      const { message } = configError(env(url));
      expect(message).toBe(
        `REDIS_URL${from} must be a redis:// or rediss:// URL such as redis://redis:6379; the value is not shown, it may hold a password`,
      );
      expect(message).not.toContain(PASSWORD);
    }
  });
});

describe('OTEL_* (traces, docs/operations.md)', () => {
  it('turns traces on with an endpoint, the traces’ own as it is or the base one with v1/traces', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracesEndpoint).toBe('http://collector:4318/v1/traces');
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
      }).tracesEndpoint,
    ).toBe('https://traces.example/otlp');
  });

  it('keeps traces off without an endpoint or with OTEL_SDK_DISABLED=true, and then checks nothing else', () => {
    expect(loadConfig({ OTEL_SERVICE_NAME: 'shop', OTEL_TRACES_SAMPLER: 'nonsense' }).tracesEndpoint).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).tracesEndpoint).toBeNull();
  });

  it('accepts the standard samplers and a ratio', () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    for (const sampler of ['always_on', 'parentbased_always_off', 'parentbased_traceidratio']) {
      expect(loadConfig({ ...on, OTEL_TRACES_SAMPLER: sampler, OTEL_TRACES_SAMPLER_ARG: '0.25' }).tracesEndpoint).not.toBeNull();
    }
  });

  it.each([
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL such as http://collector:4318, got "collector:4318"',
    ],
    [
      { OTEL_TRACES_SAMPLER: 'sometimes' },
      'OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, got "sometimes"',
    ],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG must be a sampling ratio from 0 to 1, such as 0.1, got "1.5"'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL must be http/json (the protocol this server sends), got "grpc"'],
    [{ OTEL_SDK_DISABLED: 'yes' }, 'OTEL_SDK_DISABLED must be true or false, got "yes"'],
  ])('refuses %o in one line, with traces on', (variables, message) => {
    expect(configError({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces', ...variables }).message).toBe(message);
  });
});
