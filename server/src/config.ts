import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The server's settings, read from the environment in this one place (README, "Configuration").
 * Every other module receives a `Config` and never looks at `process.env`.
 */
export interface Config {
  port: number;
  host: string;
  /** Base URL of the Fake-Store-shaped API without a trailing slash; `null` serves the embedded catalogue. */
  productsApiUrl: string | null;
  cacheTtlSeconds: number;
  upstreamTimeoutMs: number;
  staleMaxSeconds: number;
  /** `0` turns rate limiting off. */
  rateLimitPerMinute: number;
  trustProxy: boolean;
  logLevel: LogLevel;
  /** The largest upstream image accepted; a bigger one is refused (502), its download cut at this size. */
  imageMaxBytes: number;
  /** The largest upstream JSON body accepted (the product list); a bigger one is a failed fill, its download cut there. */
  upstreamMaxBytes: number;
  /**
   * The folder the catalogue's SQLite files and whole-list bodies are written in, on disk (docs/operations.md,
   * "The catalogue's files"); each process makes a folder of its own inside it. `null`: the OS temporary folder.
   */
  catalogueDataDir: string | null;
  /** Memory budget of the image LRU, in bytes of image data. */
  imageCacheMaxBytes: number;
  /** Origins (`https://cdn.example.com`) images may be fetched from besides the upstream's own; never anything else. */
  imageHosts: string[];
  /** A Redis shared by several replicas (docs/scaling.md); `null`: this process's memory only. */
  redisUrl: string | null;
  /** The site's public origin (`https://shop.example.com`) for canonical URLs, Open Graph and the sitemap; `null`: from each request. */
  publicUrl: string | null;
  /** Browser origins allowed to read `/api` (docs/api.md, "CORS"): `'*'` for any, else exact origins such as `https://app.example.com`. */
  corsOrigins: '*' | string[];
  /**
   * Where spans are sent over OTLP/HTTP (docs/operations.md, "Traces"); `null`: traces are off and the
   * OpenTelemetry SDK is never loaded.
   */
  tracesEndpoint: string | null;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A setting that does not parse. Its message is one line naming the variable, meant for stderr as it is. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The samplers OTEL_TRACES_SAMPLER names, as the OpenTelemetry specification lists those the SDK builds. */
const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;
const MIB = 1024 * 1024;

function integer(min: number, max: number) {
  return {
    schema: z
      .string()
      .regex(/^[0-9]+$/)
      .transform(Number)
      .pipe(z.number().int().min(min).max(max)),
    expected: `an integer from ${min} to ${max}`,
  };
}

const httpUrl = {
  schema: z
    .url({ protocol: /^https?$/ })
    // `{base}/products` is appended, so a trailing slash would double up.
    .transform((url) => url.replace(/\/+$/, '')),
  expected: 'an http(s) URL such as https://fakestoreapi.com',
};

const VARIABLES = {
  PORT: { default: '3000', ...integer(0, 65535) },
  HOST: { default: '0.0.0.0', schema: z.string().regex(/^\S+$/), expected: 'a host name or IP address' },
  PRODUCTS_API_URL: { default: undefined, ...httpUrl },
  CACHE_TTL_SECONDS: { default: '300', ...integer(0, ONE_YEAR_SECONDS) },
  UPSTREAM_TIMEOUT_MS: { default: '5000', ...integer(1, 600_000) },
  STALE_MAX_SECONDS: { default: '86400', ...integer(0, ONE_YEAR_SECONDS) },
  RATE_LIMIT_PER_MINUTE: { default: '600', ...integer(0, 1_000_000) },
  TRUST_PROXY: {
    default: 'false',
    schema: z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1'),
    expected: 'true or false',
  },
  LOG_LEVEL: { default: 'info', schema: z.enum(LOG_LEVELS), expected: `one of ${LOG_LEVELS.join(', ')}` },
  // Product photos are tens of kilobytes; 5 MiB leaves room for large ones while an upstream that sends a
  // video or an endless body cannot make the server buffer it.
  IMAGE_MAX_BYTES: { default: String(5 * MIB), ...integer(1, 100 * MIB) },
  // The list's JSON is about 500 bytes a product: 64 MiB holds some 130,000 of them, far past an ordinary shop,
  // while an upstream that answers an endless body still cannot make the server buffer it (README, "Configuration").
  UPSTREAM_MAX_BYTES: { default: String(64 * MIB), ...integer(1, 1024 * MIB) },
  // An absolute path: a relative one would depend on the folder the server happened to be started from.
  CATALOGUE_DATA_DIR: { default: undefined, schema: z.string().startsWith('/'), expected: 'an absolute path to a writable folder' },
  // 32 MiB holds a few hundred product photos: the whole catalogue of a shop this size.
  IMAGE_CACHE_MAX_BYTES: { default: String(32 * MIB), ...integer(1, 4096 * MIB) },
  // Origins only: a path would promise a narrower rule than the one applied (scheme, host and port).
  IMAGE_HOSTS: {
    default: undefined,
    schema: originList(),
    expected: 'comma-separated http(s) origins such as https://cdn.example.com',
  },
  REDIS_URL: {
    default: undefined,
    // `redis:6379` is a URL too (scheme `redis`, path `6379`): a host is what makes it an address.
    schema: z.url({ protocol: /^rediss?$/ }).refine((url) => URL.canParse(url) && new URL(url).hostname !== ''),
    expected: 'a redis:// or rediss:// URL such as redis://redis:6379',
  },
  // An origin: pages are served from the root, so a path would name URLs that do not exist.
  PUBLIC_URL: {
    default: undefined,
    schema: httpOrigin(),
    expected: 'the http(s) origin the site is reached at, such as https://shop.example.com',
  },
  // Exact origins, as a browser sends them in `Origin`: normalised the same way (lower-case host, no default
  // port), so a listed origin matches by string comparison.
  CORS_ORIGINS: {
    default: '*',
    // At least one: a list of none (`,`) is more likely a slip than a wish to refuse every browser.
    schema: z.union([z.literal('*'), originList().pipe(z.array(z.string()).min(1))]),
    expected: '* or comma-separated http(s) origins such as https://app.example.com,http://localhost:5173',
  },
  // The OpenTelemetry SDK's standard variables. The SDK reads them itself (the same names and meanings as in every
  // other service an operator traces), which is the one exception to "only this module reads the environment":
  // they are checked here first, when traces are on, because the SDK reports a bad value on its diagnostic
  // channel, which is silent, and carries on with a default.
  OTEL_SDK_DISABLED: {
    default: 'false',
    schema: z.enum(['true', 'false', 'TRUE', 'FALSE', 'True', 'False']).transform((value) => value.toLowerCase() === 'true'),
    expected: 'true or false',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    default: undefined,
    schema: z.url({ protocol: /^https?$/ }),
    expected: 'an http(s) URL such as http://collector:4318',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    default: undefined,
    schema: z.url({ protocol: /^https?$/ }),
    expected: 'an http(s) URL such as http://collector:4318/v1/traces',
  },
  // The exporter shipped sends OTLP as JSON over HTTP; a collector's OTLP/HTTP receiver takes it on port 4318.
  OTEL_EXPORTER_OTLP_PROTOCOL: {
    default: undefined,
    schema: z.literal('http/json'),
    expected: 'http/json (the protocol this server sends)',
  },
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: {
    default: undefined,
    schema: z.literal('http/json'),
    expected: 'http/json (the protocol this server sends)',
  },
  OTEL_TRACES_SAMPLER: { default: undefined, schema: z.enum(TRACES_SAMPLERS), expected: `one of ${TRACES_SAMPLERS.join(', ')}` },
  OTEL_TRACES_SAMPLER_ARG: {
    default: undefined,
    schema: z
      .string()
      .regex(/^(0(\.[0-9]+)?|1(\.0+)?|\.[0-9]+)$/)
      .transform(Number),
    expected: 'a sampling ratio from 0 to 1, such as 0.1',
  },
} as const;

/** An http(s) origin, normalised as browsers send `Origin` (lower-case host, no default port, no trailing slash). */
function httpOrigin() {
  return z
    .url({ protocol: /^https?$/ })
    .refine(isOrigin)
    .transform((url) => new URL(url).origin);
}

/** Comma-separated http(s) origins; blanks around and between commas are ignored. */
function originList() {
  return z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    )
    .pipe(z.array(httpOrigin()));
}

/** `https://cdn.example.com` or `https://cdn.example.com/`, nothing more: no path, query, fragment or credentials. */
function isOrigin(value: string): boolean {
  // Zod runs this even after z.url() has refused the value.
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === '' &&
    !value.endsWith('?') &&
    !value.endsWith('#')
  );
}

type VariableName = keyof typeof VARIABLES;
type ParsedValue<Name extends VariableName> = z.output<(typeof VARIABLES)[Name]['schema']>;

/**
 * The variables that may hold a secret (a password in REDIS_URL). Each may instead be read from the file its
 * `_FILE` variable names, as Swarm and Kubernetes hand secrets over (README, "Configuration"), and its value is
 * never repeated in an error message.
 */
const SECRET_VARIABLES: ReadonlySet<VariableName> = new Set(['REDIS_URL']);

/**
 * `env` with each secret variable's `_FILE` read in its place (its trailing newline, as `echo` and editors leave
 * one, trimmed). Both set is refused rather than one silently winning; so is a file that cannot be read or is empty.
 */
function withSecretFiles(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const resolved = { ...env };
  for (const name of SECRET_VARIABLES) {
    const fileVariable = `${name}_FILE`;
    const path = env[fileVariable]?.trim();
    if (!path) continue;
    if (env[name]?.trim()) throw new ConfigError(`${name} and ${fileVariable} are both set: set one of them`);
    let contents: string;
    try {
      contents = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new ConfigError(`${fileVariable}: cannot read ${JSON.stringify(path)} (${code})`);
    }
    const value = contents.replace(/\r?\n$/, '');
    if (value.trim() === '') throw new ConfigError(`${fileVariable}: ${JSON.stringify(path)} is empty`);
    resolved[name] = value;
  }
  return resolved;
}

/**
 * Reads and checks every variable. Unset and empty values both mean "use the default" (an empty
 * PRODUCTS_API_URL therefore selects the embedded catalogue), so `PORT=` in a compose file is harmless.
 * REDIS_URL may come from the file REDIS_URL_FILE names instead.
 * Throws a ConfigError for the first variable that does not parse.
 */
export function loadConfig(environment: Record<string, string | undefined>): Config {
  const env = withSecretFiles(environment);
  function read<Name extends VariableName>(name: Name): ParsedValue<Name> | undefined {
    const variable = VARIABLES[name];
    const raw = env[name]?.trim() || variable.default;
    if (raw === undefined) return undefined;
    const result = variable.schema.safeParse(raw);
    if (!result.success) {
      if (!SECRET_VARIABLES.has(name)) {
        throw new ConfigError(`${name} must be ${variable.expected}, got ${JSON.stringify(env[name])}`);
      }
      const from = environment[`${name}_FILE`]?.trim() ? ` (read from ${name}_FILE)` : '';
      throw new ConfigError(`${name}${from} must be ${variable.expected}; the value is not shown, it may hold a password`);
    }
    return result.data as ParsedValue<Name>;
  }
  function required<Name extends VariableName>(name: Name): ParsedValue<Name> {
    const value = read(name);
    // Unreachable for variables with a default; kept so the types need no assertion.
    if (value === undefined) throw new ConfigError(`${name} must be set`);
    return value;
  }

  return {
    port: required('PORT'),
    host: required('HOST'),
    productsApiUrl: read('PRODUCTS_API_URL') ?? null,
    cacheTtlSeconds: required('CACHE_TTL_SECONDS'),
    upstreamTimeoutMs: required('UPSTREAM_TIMEOUT_MS'),
    staleMaxSeconds: required('STALE_MAX_SECONDS'),
    rateLimitPerMinute: required('RATE_LIMIT_PER_MINUTE'),
    trustProxy: required('TRUST_PROXY'),
    logLevel: required('LOG_LEVEL'),
    imageMaxBytes: required('IMAGE_MAX_BYTES'),
    upstreamMaxBytes: required('UPSTREAM_MAX_BYTES'),
    catalogueDataDir: read('CATALOGUE_DATA_DIR') ?? null,
    imageCacheMaxBytes: required('IMAGE_CACHE_MAX_BYTES'),
    imageHosts: read('IMAGE_HOSTS') ?? [],
    redisUrl: read('REDIS_URL') ?? null,
    publicUrl: read('PUBLIC_URL') ?? null,
    corsOrigins: required('CORS_ORIGINS'),
    tracesEndpoint: tracesEndpoint(),
  };

  /**
   * Traces are on with an OTLP endpoint (the traces' own, or the base one the SDK appends `v1/traces` to), unless
   * OTEL_SDK_DISABLED says otherwise; only then are the other OTEL_* variables the SDK reads checked.
   */
  function tracesEndpoint(): string | null {
    if (required('OTEL_SDK_DISABLED')) return null;
    const base = read('OTEL_EXPORTER_OTLP_ENDPOINT');
    const endpoint = read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? (base && `${base.replace(/\/+$/, '')}/v1/traces`);
    if (endpoint === undefined) return null;
    read('OTEL_EXPORTER_OTLP_PROTOCOL');
    read('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL');
    read('OTEL_TRACES_SAMPLER');
    read('OTEL_TRACES_SAMPLER_ARG');
    return endpoint;
  }
}
