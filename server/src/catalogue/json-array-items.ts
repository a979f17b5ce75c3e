/**
 * The items of a JSON array read one at a time from its UTF-8 bytes, so that a fill never holds the body as one
 * string nor the whole array parsed (list-fill.ts): tens of megabytes of each at 200,000 products, on a heap the
 * fill's thread must then give back when it exits (docs/decisions/catalogue-off-the-request-thread.md).
 *
 * Only the item boundaries are found here: bytes are scanned for the commas and the closing bracket that lie
 * outside strings and nested values; each item's own bytes are then parsed by JSON.parse, which alone judges what
 * JSON is. If every item parses and only JSON whitespace surrounds the brackets and the commas, the bytes are a
 * JSON array with exactly these items. Anything else (not an array, broken JSON, a byte-order mark, other text around
 * it) is answered `false`, and the caller parses the whole body to say what it is, as it did before.
 */
export function eachJsonArrayItem(bytes: Buffer, visit: (item: unknown, index: number) => void): boolean {
  const end = bytes.length;
  let at = skipWhitespace(bytes, 0);
  if (bytes[at] !== OPEN_ARRAY) return false;
  at = skipWhitespace(bytes, at + 1);
  let index = 0;
  if (bytes[at] === CLOSE_ARRAY) return skipWhitespace(bytes, at + 1) === end;
  for (;;) {
    const itemEnd = endOfItem(bytes, at);
    if (itemEnd === -1) return false;
    let item: unknown;
    try {
      item = JSON.parse(bytes.toString('utf8', at, itemEnd));
    } catch {
      return false;
    }
    visit(item, index++);
    // endOfItem stops at a comma or the closing bracket, outside every string and nested value.
    if (bytes[itemEnd] === CLOSE_ARRAY) return skipWhitespace(bytes, itemEnd + 1) === end;
    at = itemEnd + 1;
  }
}

const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** JSON's whitespace (space, tab, line feed, carriage return): the only bytes JSON.parse allows between tokens. */
function skipWhitespace(bytes: Buffer, from: number): number {
  let at = from;
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
  return at;
}

/**
 * Where the item starting at `from` ends: the offset of the first comma or closing bracket outside its strings and
 * nested values, or -1 when the bytes end first or close more than they opened. Brackets and braces are counted
 * alike; an item that mismatches them is refused by JSON.parse.
 */
function endOfItem(bytes: Buffer, from: number): number {
  let depth = 0;
  for (let at = from; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      at = endOfString(bytes, at);
      if (at === -1) return -1;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth++;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      if (depth === 0) return byte === CLOSE_ARRAY ? at : -1;
      depth--;
    } else if (byte === COMMA && depth === 0) {
      return at;
    }
  }
  return -1;
}

/** The offset of the quote that closes the string opened at `quote`, or -1 when the bytes end first. */
function endOfString(bytes: Buffer, quote: number): number {
  let at = quote + 1;
  for (;;) {
    const next = bytes.indexOf(QUOTE, at);
    if (next === -1) return -1;
    // A quote preceded by an odd number of backslashes is escaped.
    let backslashes = 0;
    while (bytes[next - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return next;
    at = next + 1;
  }
}
