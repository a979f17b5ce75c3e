import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * How config.ts reads one environment variable: the shape of a declaration, the kinds of value the settings take,
 * and the one-line errors (README, "Configuration"). The variables themselves are declared in config.ts.
 */

/** A setting that does not parse. Its message is one line naming the variable, meant for stderr as it is. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** One environment variable. Unset and empty (or blank) both mean `default`, parsed like any value. */
export interface Variable {
  schema: z.ZodType<unknown, string>;
  /** Completes `<NAME> must be …, got "<value>"`. */
  expected: string;
  default?: string;
  /** The value with neither a value nor a default (else `null`). */
  unset?: unknown;
  /** May hold a password: never repeated in an error, and may be read from the file `<NAME>_FILE` names instead (as
   * Swarm and Kubernetes hand secrets over); the text is that `_FILE` variable's meaning in the README. */
  secretFile?: string;
}

/** A variable `Config` holds, with its row of the README's table. */
export interface Setting extends Variable {
  /** The default column: in brackets after the default, or in place of "unset". */
  note?: string;
  /** The meaning column, in Markdown. */
  meaning: string;
}

/** What a variable reads as: its schema's output, or, unset and without a default, its `unset` value or `null`. */
export type ValueOf<V extends Variable> =
  z.output<V['schema']> | (V extends { default: string } ? never : V extends { unset: infer U } ? U : null);

/**
 * Reads `name` from `env`, or a secret from the file its `_FILE` variable names (the trailing newline `echo` and
 * editors leave trimmed). Both set is refused rather than one silently winning, as is a file that cannot be read or
 * is empty. A value that does not parse throws a ConfigError saying what was expected, and what was got unless it
 * may hold a password.
 */
export function readVariable<V extends Variable>(env: Record<string, string | undefined>, name: string, variable: V): ValueOf<V> {
  const { schema, expected, secretFile } = variable;
  const file = secretFile && env[`${name}_FILE`]?.trim();
  if (file && env[name]?.trim()) throw new ConfigError(`${name} and ${name}_FILE are both set: set one of them`);
  const raw = (file ? readSecretFile(`${name}_FILE`, file) : env[name])?.trim() || variable.default;
  if (raw === undefined) return ('unset' in variable ? variable.unset : null) as ValueOf<V>;
  const result = schema.safeParse(raw);
  if (result.success) return result.data as ValueOf<V>;
  if (!secretFile) throw new ConfigError(`${name} must be ${expected}, got ${JSON.stringify(env[name])}`);
  const from = file ? ` (read from ${name}_FILE)` : '';
  throw new ConfigError(`${name}${from} must be ${expected}; the value is not shown, it may hold a password`);
}

function readSecretFile(variable: string, path: string): string {
  let contents: string;
  try {
    contents = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${variable}: cannot read ${JSON.stringify(path)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const value = contents.replace(/\r?\n$/, '');
  if (value.trim() === '') throw new ConfigError(`${variable}: ${JSON.stringify(path)} is empty`);
  return value;
}

export const MIB = 1024 * 1024;

export function integer(min: number, max: number) {
  return {
    schema: z
      .string()
      .regex(/^[0-9]+$/)
      .transform(Number)
      .pipe(z.number().int().min(min).max(max)),
    expected: `an integer from ${min} to ${max}`,
  };
}

/** A size in bytes, its default shown in MiB in the README too. */
export function bytes(min: number, max: number, fallback: number) {
  return { ...integer(min, max), default: String(fallback), note: `${fallback / MIB} MiB` };
}

/** `true` or `false`, spelt as `values` allow; unset is `false`. */
export function boolean(values: [string, ...string[]]) {
  return {
    schema: z.enum(values).transform((value) => ['true', '1'].includes(value.toLowerCase())),
    expected: 'true or false',
    default: 'false',
  };
}

export const httpUrl = z.url({ protocol: /^https?$/ });

/** An http(s) origin, normalised as browsers send `Origin` (lower-case host, no default port, no trailing slash). */
export const httpOrigin = httpUrl.refine(isOrigin).transform((url) => new URL(url).origin);

/** Comma-separated http(s) origins; blanks around and between commas are ignored. */
export const originList = z
  .string()
  .transform((list) =>
    list
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  )
  .pipe(z.array(httpOrigin));

/** `https://cdn.example.com` or `https://cdn.example.com/`, nothing more: no path, query, fragment or credentials. */
function isOrigin(value: string): boolean {
  // Zod runs this even after z.url() has refused the value.
  if (!URL.canParse(value) || value.endsWith('?') || value.endsWith('#')) return false;
  const { pathname, search, hash, username, password } = new URL(value);
  return pathname === '/' && search === '' && hash === '' && username === '' && password === '';
}
