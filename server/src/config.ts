import { z } from 'zod';
import {
  boolean,
  bytes,
  httpOrigin,
  httpUrl,
  integer,
  MIB,
  originList,
  readVariable,
  type Setting,
  type ValueOf,
  type Variable,
} from './config-values.js';

export { ConfigError } from './config-values.js';

/**
 * The server's settings, read from the environment in this one place (README, "Configuration"). Each variable is
 * declared once below: how its text parses, what its one-line error says it expected, its default, and its row of
 * the README's table (scripts/settings-table.mjs writes the table from here; `npm run lint` fails when they differ).
 * `Config` is inferred from the declarations: each variable's value under its name in camelCase (`PORT` → `port`).
 * Every other module receives a `Config` and never looks at `process.env`.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The settings `Config` holds, in the README's order. */
export const SETTINGS = {
  PORT: { ...integer(0, 65535), default: '3000', meaning: 'listening port' },
  HOST: { schema: z.string().regex(/^\S+$/), expected: 'a host name or IP address', default: '0.0.0.0', meaning: 'listening address' },
  PRODUCTS_API_URL: {
    // `{base}/products` is appended, so a trailing slash would double up.
    schema: httpUrl.transform((url) => url.replace(/\/+$/, '')),
    expected: 'an http(s) URL such as https://fakestoreapi.com',
    meaning:
      'base URL of a Fake-Store-shaped API (e.g. `https://fakestoreapi.com`); the server calls `{base}/products` and `{base}/products/{id}`. Unset or empty: the embedded catalogue',
  },
  CACHE_TTL_SECONDS: { ...integer(0, ONE_YEAR_SECONDS), default: '300', meaning: 'how long an upstream response is fresh' },
  UPSTREAM_TIMEOUT_MS: { ...integer(1, 600_000), default: '5000', meaning: "one upstream request's time limit" },
  STALE_MAX_SECONDS: {
    ...integer(0, ONE_YEAR_SECONDS),
    default: '86400',
    meaning: 'how long past its freshness a cached answer may still be served while refreshing or while the upstream fails',
  },
  RATE_LIMIT_PER_MINUTE: {
    ...integer(0, 1_000_000),
    default: '600',
    meaning: 'requests per client address per minute on `/api` (IPv6 counted per /56); `0` turns it off',
  },
  TRUST_PROXY: {
    ...boolean(['true', 'false', '1', '0']),
    meaning:
      'take the client address from `X-Forwarded-For`; `true` trusts exactly one proxy hop, so clients cannot forge their address past it',
  },
  LOG_LEVEL: {
    schema: z.enum(LOG_LEVELS),
    expected: `one of ${LOG_LEVELS.join(', ')}`,
    default: 'info',
    meaning: `${LOG_LEVELS.slice(0, -1)
      .map((level) => `\`${level}\``)
      .join(', ')} or \`silent\``,
  },
  // Product photos are tens of kilobytes; 5 MiB leaves room for large ones while an upstream that sends a
  // video or an endless body cannot make the server buffer it.
  IMAGE_MAX_BYTES: {
    ...bytes(1, 100 * MIB, 5 * MIB),
    meaning: 'largest upstream image accepted; a bigger one is refused with `502`, its download cut at that size',
  },
  // The list's JSON is about 500 bytes a product: 64 MiB holds some 130,000 of them, far past an ordinary shop,
  // while an upstream that responds with an endless body still cannot make the server buffer it.
  UPSTREAM_MAX_BYTES: {
    ...bytes(1, 1024 * MIB, 64 * MIB),
    meaning:
      "largest upstream JSON body accepted: the list is about 500 bytes a product, so the default holds some 130,000 products. Past it the fill fails like any upstream failure (`502` from `/api`, `503` pages, a cached copy still served) with one log line naming `UPSTREAM_MAX_BYTES`; raise it for a larger catalogue (past some 400,000 products, the image's heap cap in `NODE_OPTIONS` too: [docs/scaling.md](docs/scaling.md#what-one-replica-needs))",
  },
  // An absolute path: a relative one would depend on the folder the server happened to be started from.
  CATALOGUE_DATA_DIR: {
    schema: z.string().startsWith('/'),
    expected: 'an absolute path to a writable folder',
    note: 'the OS temporary folder (the image: `/var/lib/catalogue`, a volume)',
    meaning:
      "where the catalogue's SQLite database and the whole list's bodies are written, an absolute path to a writable folder on disk (not tmpfs); each process writes in a folder of its own inside it, so replicas may share it ([docs/operations.md](docs/operations.md#the-catalogues-files))",
  },
  // 32 MiB holds a few hundred product photos: the whole catalogue of a shop this size.
  IMAGE_CACHE_MAX_BYTES: {
    ...bytes(1, 4096 * MIB, 32 * MIB),
    meaning: 'memory budget of the image cache, originals and resized variants together; least recently used images go first',
  },
  // Origins only: a path would promise a narrower rule than the one applied (scheme, host and port).
  IMAGE_HOSTS: {
    schema: originList,
    expected: 'comma-separated http(s) origins such as https://cdn.example.com',
    unset: [] as string[],
    meaning:
      "more origins product images may be fetched from, comma-separated (`https://cdn.example.com,http://10.0.0.5:8080`). The upstream's own origin (scheme, host and port of `PRODUCTS_API_URL`) is always allowed, nothing else is: an image URL or a redirect to any other origin gets `502` and that host is never contacted. Origins only: a path is refused at start-up",
  },
  REDIS_URL: {
    // `redis:6379` is a URL too (scheme `redis`, path `6379`): a host is what makes it an address.
    schema: z.url({ protocol: /^rediss?$/ }).refine((url) => URL.canParse(url) && new URL(url).hostname !== ''),
    expected: 'a redis:// or rediss:// URL such as redis://redis:6379',
    meaning:
      "a Redis shared by several replicas (`redis://host:6379`, `rediss://` for TLS, `redis://:password@host:6379/0`): see [docs/scaling.md](docs/scaling.md); the rate limit is then counted there for the whole site. Unset: this process's memory only",
    secretFile:
      'a file holding `REDIS_URL` (a Swarm secret, a Kubernetes Secret: `/run/secrets/…`), so a password stays out of the environment, `docker inspect` and the manifests; its trailing newline is trimmed. Setting both is refused at start-up, as is a file that cannot be read or is empty. A refused `REDIS_URL` is never repeated in the error',
  },
  // An origin: pages are served from the root, so a path would name URLs that do not exist.
  PUBLIC_URL: {
    schema: httpOrigin,
    expected: 'the http(s) origin the site is reached at, such as https://shop.example.com',
    meaning:
      "the site's public origin (`https://shop.example.com`), used for the pages' canonical URLs, Open Graph tags, the sitemap and `robots.txt`. Unset: taken from each request's `Host` (and, with `TRUST_PROXY=true`, `X-Forwarded-Host`/`X-Forwarded-Proto`). An origin only: a path is refused at start-up",
  },
  // Exact origins, as a browser sends them in `Origin` (normalised alike), so a listed one matches by comparison;
  // at least one: a list of none (`,`) is more likely a slip than a wish to refuse every browser.
  CORS_ORIGINS: {
    schema: z.union([z.literal('*'), originList.pipe(z.array(z.string()).min(1))]),
    expected: '* or comma-separated http(s) origins such as https://app.example.com,http://localhost:5173',
    default: '*',
    meaning:
      'which browser origins may read `/api` from their scripts: `*` for any, or a comma-separated list of http(s) origins (`https://app.example.com,http://localhost:5173`; scheme, host and port, matched exactly as browsers send `Origin`). Unset or empty: `*`. A path, another scheme, `*` inside a list or a list of nothing (`,`) is refused at start-up. See [docs/api.md, "CORS"](docs/api.md#cors)',
  },
} satisfies Record<string, Setting>;

/** The samplers OTEL_TRACES_SAMPLER names, as the OpenTelemetry specification lists those the SDK builds. */
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
const otlpProtocol = { schema: z.literal('http/json'), expected: 'http/json (the protocol this server sends)' };

/**
 * The OpenTelemetry SDK's standard variables, which `Config` holds as one `tracesEndpoint`. The SDK reads them itself
 * (the same names and meanings as in every other service an operator traces), the one exception to "only this module
 * reads the environment": they are checked here first, when traces are on, because the SDK reports a bad value on
 * its diagnostic channel, which is silent, and carries on with a default. One README row covers them all (TRACES_ROW).
 */
const TRACES = {
  OTEL_SDK_DISABLED: boolean(['true', 'false', 'TRUE', 'FALSE', 'True', 'False']),
  OTEL_EXPORTER_OTLP_ENDPOINT: { schema: httpUrl, expected: 'an http(s) URL such as http://collector:4318' },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: { schema: httpUrl, expected: 'an http(s) URL such as http://collector:4318/v1/traces' },
  // The exporter shipped sends OTLP as JSON over HTTP; a collector's OTLP/HTTP receiver takes it on port 4318.
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol,
  OTEL_TRACES_SAMPLER: { schema: z.enum(SAMPLERS), expected: `one of ${SAMPLERS.join(', ')}` },
  OTEL_TRACES_SAMPLER_ARG: {
    schema: z.string().regex(/^(0(\.[0-9]+)?|1(\.0+)?|\.[0-9]+)$/),
    expected: 'a sampling ratio from 0 to 1, such as 0.1',
  },
} satisfies Record<string, Variable>;

/** The README's one row for every OTEL_* variable. */
export const TRACES_ROW = {
  variable: '`OTEL_EXPORTER_OTLP_ENDPOINT` and the other `OTEL_*`',
  meaning:
    'traces over OTLP/HTTP to this collector (`http://collector:4318`), a span per request and for its cache, list and upstream work; the caller\'s W3C `traceparent` is accepted and passed on to the upstream. The SDK\'s standard variables (`OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`, …): [docs/operations.md, "Traces"](docs/operations.md#traces). Unset: traces off, at no cost',
};

type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<CamelCase<Tail>>}`
  : Lowercase<Name>;
type Settings = { [Name in keyof typeof SETTINGS as CamelCase<Name>]: ValueOf<(typeof SETTINGS)[Name]> };
/** Every setting, and where spans are sent (docs/operations.md, "Traces"; `null`: off), as one flat object type. */
export type Config = Flat<Settings & { tracesEndpoint: string | null }>;
type Flat<T> = { [Key in keyof T]: T[Key] };

/** Reads and checks every variable, in the order declared; throws a ConfigError for the first that does not parse. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const read = <V extends Variable>(name: string, variable: V) => readVariable(env, name, variable);
  /**
   * Traces are on with an OTLP endpoint (the traces' own, or the base one the SDK appends `v1/traces` to), unless
   * OTEL_SDK_DISABLED says otherwise; only then are the other OTEL_* variables the SDK reads checked.
   */
  function tracesEndpoint(): string | null {
    if (read('OTEL_SDK_DISABLED', TRACES.OTEL_SDK_DISABLED)) return null;
    const base = read('OTEL_EXPORTER_OTLP_ENDPOINT', TRACES.OTEL_EXPORTER_OTLP_ENDPOINT);
    const endpoint =
      read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', TRACES.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ??
      (base === null ? null : `${base.replace(/\/+$/, '')}/v1/traces`);
    if (endpoint === null) return null;
    for (const [name, variable] of Object.entries(TRACES)) read(name, variable);
    return endpoint;
  }
  const settings = Object.entries(SETTINGS).map(([name, variable]) => [camelCase(name), read(name, variable)]);
  return { ...(Object.fromEntries(settings) as Settings), tracesEndpoint: tracesEndpoint() };
}

function camelCase(name: string): string {
  return name.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
