/**
 * The items of a JSON array read one at a time from its UTF-8 bytes as they arrive, so that a fill never holds the
 * body whole, nor as one string, nor the whole array parsed (list-fill.ts): tens of megabytes of each at 200,000
 * products, on a heap the fill's process must then give back when it exits
 * (docs/decisions/catalogue-in-sqlite.md).
 *
 * Only the item boundaries are found here: bytes are scanned, chunk after chunk, for the commas and the closing
 * bracket that lie outside strings and nested values; each item's own bytes (only the unfinished item's are held
 * between chunks, so a character or an escape split across chunks is whole again when parsed) are then parsed by
 * JSON.parse, which alone judges what JSON is. The array is what the fill always accepted: the body's text, trimmed
 * as String.prototype.trim trims (a byte-order mark, any Unicode space), is a JSON array. Anything else is refused:
 * at its first token when it is no array at all (the caller reads the rest to tell not-JSON from not-an-array),
 * or where the bytes stop being one (broken JSON, text after the array).
 */

/** What the bytes were: an array whose items were all visited; no array (its first token is not `[`); or broken. */
export type ArrayVerdict = 'array' | 'not-an-array' | 'broken';

export interface JsonArrayReader {
  /** Reads the next chunk, visiting each item it completes. False once the bytes are refused: the rest is not read. */
  push(chunk: Buffer): boolean;
  /** Whether the array's opening bracket was read: from then on, the bytes are an array or broken. */
  opened(): boolean;
  /** The bytes have all come: what they were. */
  end(): ArrayVerdict;
}

/** The items of one whole buffer (a copy another replica shared): the reader fed one chunk. */
export function eachJsonArrayItem(bytes: Buffer, visit: (item: unknown, index: number) => void): boolean {
  const reader = jsonArrayReader(visit);
  reader.push(bytes);
  return reader.end() === 'array';
}

const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The most bytes of text before the opening bracket or after the closing one that are judged (decoded, trimmed)
 * rather than refused: room for a byte-order mark and a few spaces of any kind, never a body's worth.
 */
const MAX_AROUND_BYTES = 64;

/** JSON's whitespace (space, tab, line feed, carriage return): the only bytes JSON.parse allows between tokens. */
const isJsonWhitespace = (byte: number): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/** Whether text around the array is only what trimming removes (String.prototype.trim's spaces, a byte-order mark). */
const isBlank = (pieces: readonly Buffer[]): boolean => Buffer.concat(pieces).toString('utf8').trim() === '';

/**
 * Where the reader is: before the array; where an item is due (after `[` or a comma); inside an item (which ends at
 * the comma or the closing bracket after it); after the array; or done with bytes it refused.
 */
type Phase = 'before' | 'item' | 'inItem' | 'after' | 'refused';

export function jsonArrayReader(visit: (item: unknown, index: number) => void): JsonArrayReader {
  let phase: Phase = 'before';
  let refusedAs: ArrayVerdict = 'broken';
  let index = 0;
  let emptySoFar = true;
  // Inside an item: its bytes so far, the nesting depth, and whether a string (and an escape in it) is open.
  let pieces: Buffer[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  // Non-JSON-whitespace text before `[` or after `]`, judged by isBlank.
  let around: Buffer[] = [];
  let aroundBytes = 0;

  const refuse = (as: ArrayVerdict): false => {
    phase = 'refused';
    refusedAs = as;
    pieces = [];
    return false;
  };
  const keepAround = (chunk: Buffer, from: number, to: number): boolean => {
    aroundBytes += to - from;
    around.push(chunk.subarray(from, to));
    return aroundBytes <= MAX_AROUND_BYTES;
  };
  return {
    push(chunk) {
      let at = 0;
      let itemFrom = 0;
      while (at < chunk.length) {
        const byte = chunk[at]!;
        switch (phase) {
          case 'refused':
            return false;
          case 'before':
          case 'after':
            if (isJsonWhitespace(byte)) break;
            if (phase === 'before' && byte === OPEN_ARRAY) {
              if (around.length > 0 && !isBlank(around)) return refuse('not-an-array');
              around = [];
              aroundBytes = 0;
              phase = 'item';
              break;
            }
            // Not JSON's whitespace: text that is blank only when decoded (a byte-order mark, a no-break space...),
            // or else no array (before it) or text after it. A multi-byte character is never `[`.
            if (byte < 0x80 && byte !== 0x0b && byte !== 0x0c) return refuse(phase === 'before' ? 'not-an-array' : 'broken');
            if (!keepAround(chunk, at, at + 1)) return refuse(phase === 'before' ? 'not-an-array' : 'broken');
            break;
          case 'item':
            if (isJsonWhitespace(byte)) break;
            if (byte === CLOSE_ARRAY && emptySoFar) {
              phase = 'after';
              break;
            }
            if (byte === COMMA || byte === CLOSE_ARRAY) return refuse('broken');
            phase = 'inItem';
            emptySoFar = false;
            itemFrom = at;
            continue; // the item's first byte is scanned as part of it
          case 'inItem': {
            const itemEnd = scanItem(chunk, at);
            if (itemEnd === chunk.length) {
              at = itemEnd;
              continue;
            }
            if (itemEnd === -1) return refuse('broken');
            if (!endItem(chunk, itemFrom, itemEnd)) return false;
            phase = chunk[itemEnd] === COMMA ? 'item' : 'after';
            at = itemEnd;
            break;
          }
        }
        at++;
      }
      if (phase === 'inItem') pieces.push(chunk.subarray(itemFrom));
      return phase !== 'refused';
    },
    opened: () => phase !== 'before' && !(phase === 'refused' && refusedAs === 'not-an-array'),
    end() {
      if (phase === 'refused') return refusedAs;
      if (phase === 'before') return 'not-an-array';
      if (phase !== 'after') return 'broken';
      return around.length === 0 || isBlank(around) ? 'array' : 'broken';
    },
  };

  /**
   * Where the item being read ends in `chunk`, scanning from `from`: the offset of the comma or closing bracket
   * outside its strings and nested values; `chunk.length` when the chunk ends first (the state carries over); -1
   * when it closes more than it opened. Locals in the loop, the state written back once: this is the fill's hot loop.
   */
  function scanItem(chunk: Buffer, from: number): number {
    let at = from;
    let open = depth;
    let quoted = inString;
    let afterBackslash = escaped;
    let end = chunk.length;
    for (; at < chunk.length; at++) {
      const byte = chunk[at];
      if (quoted) {
        if (afterBackslash) {
          afterBackslash = false;
          continue;
        }
        // Strings are most of a catalogue's bytes: jump to the next quote, escaped when an odd run of backslashes
        // precedes it (none carried over: the byte before `at` escapes nothing).
        const quote = chunk.indexOf(QUOTE, at);
        const stop = quote === -1 ? chunk.length : quote;
        let backslashes = 0;
        while (stop - 1 - backslashes >= at && chunk[stop - 1 - backslashes] === BACKSLASH) backslashes++;
        at = stop;
        if (quote === -1) afterBackslash = backslashes % 2 === 1;
        else quoted = backslashes % 2 === 1;
      } else if (byte === QUOTE) {
        quoted = true;
      } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        open++;
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
        // Brackets and braces are counted alike; an item that mismatches them is refused by JSON.parse.
        if (open > 0) open--;
        else {
          end = byte === CLOSE_ARRAY ? at : -1;
          break;
        }
      } else if (byte === COMMA && open === 0) {
        end = at;
        break;
      }
    }
    depth = open;
    inString = quoted;
    escaped = afterBackslash;
    return end;
  }

  /** Parses the item that ends at `to` in `chunk` (begun at `from`, or in the chunks before) and visits it. */
  function endItem(chunk: Buffer, from: number, to: number): boolean {
    // Most items lie within one chunk: decoded where they are, not copied first.
    const text =
      pieces.length === 0 ? chunk.toString('utf8', from, to) : Buffer.concat([...pieces, chunk.subarray(from, to)]).toString('utf8');
    pieces = [];
    let item: unknown;
    try {
      item = JSON.parse(text);
    } catch {
      return refuse('broken');
    }
    visit(item, index++);
    return true;
  }
}
