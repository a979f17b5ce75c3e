/**
 * The one rule for product ids, asked by the browser (show 'Invalid Product ID', make no request) and by the
 * server (answer 400, never ask the upstream, which hangs on non-numeric ids).
 * An id is ASCII digits only, and must fit in a safe integer: `abc`, `1.5`, `-1`, `1e3`, ` 1` and 40-digit
 * strings are all rejected.
 */
const DIGITS = /^[0-9]+$/;

export function parseProductId(raw: string | undefined): number | null {
  if (raw === undefined || !DIGITS.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
