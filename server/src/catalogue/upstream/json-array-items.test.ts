import { seededRandom } from '@catalogue/testing/seeded-random';
import { describe, expect, it } from 'vitest';
import { type ArrayVerdict, eachJsonArrayItem, jsonArrayReader } from './json-array-items.js';

/** The items read one at a time, or `false` when the reader refused the bytes. */
function itemsOf(text: string): unknown[] | false {
  const items: unknown[] = [];
  return eachJsonArrayItem(Buffer.from(text, 'utf8'), (item, index) => {
    expect(index).toBe(items.length);
    items.push(item);
  })
    ? items
    : false;
}

describe('eachJsonArrayItem', () => {
  it('reads each item of an array as JSON.parse reads the whole, whatever its strings hold', () => {
    const hostile = [
      { title: 'a "quoted" title, with ] and } and [ and {', tags: ['x,y', '\\', '\\"', ''], nested: { a: [1, [2, { b: null }]] } },
      'ends in a backslash \\',
      '\u2028 line separator, 𝄞 and ünïcödé, <script>alert(1)</script>',
      -1.5e-7,
      true,
      null,
      [],
      {},
    ];
    const text = `  \r\n[ ${hostile.map((item) => JSON.stringify(item, null, 1)).join(' ,\t')} ]\n `;
    expect(itemsOf(text)).toEqual(JSON.parse(text));
    expect(itemsOf('[]')).toEqual([]);
    expect(itemsOf(' [ \n ] ')).toEqual([]);
  });

  it('refuses what is not a JSON array, so the caller judges the whole body', () => {
    for (const text of [
      '',
      '   ',
      '{"id":1}',
      '"[1]"',
      '[1,2',
      '[1,,2]',
      '[1,]',
      '[,1]',
      '[1 2]',
      '[{"a":1]}]',
      '[{"a":1}}]',
      '[1]]',
      '[1] x',
      '[1] \u00e9',
      '\u00e9[1]',
      '["unterminated]',
      '["a\\"]',
      '[{"a":"line\nbreak"}]',
    ]) {
      expect(itemsOf(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('reads an array with any text that trimming removes around it, as the fill always read its body', () => {
    expect(itemsOf('\uFEFF[1]')).toEqual([1]);
    expect(itemsOf('\u00a0\u3000\v[1]\u2028\f\uFEFF')).toEqual([1]);
  });

  it('reports the items before a broken one, then refuses', () => {
    const items: unknown[] = [];
    expect(eachJsonArrayItem(Buffer.from('[1,{"a":2},{"b":'), (item) => items.push(item))).toBe(false);
    expect(items).toEqual([1, { a: 2 }]);
  });
});

/** Text that stresses the boundaries: quotes, backslashes, brackets, commas, braces, multi-byte and astral characters. */
const HOSTILE_PIECES = ['"', '\\', '\\"', ']', '[', ',', '{', '}', ':', ' ', '😀', '𝄞', 'é', '中', '\u2028', 'a', 'title'];

function hostileText(random: () => number, maxPieces: number): string {
  let text = '';
  const pieces = Math.floor(random() * maxPieces);
  for (let piece = 0; piece < pieces; piece++) text += HOSTILE_PIECES[Math.floor(random() * HOSTILE_PIECES.length)]!;
  return text;
}

function hostileValue(random: () => number, depth = 0): unknown {
  const kind = Math.floor(random() * (depth > 2 ? 4 : 6));
  if (kind === 0) return hostileText(random, random() < 0.05 ? 4000 : 12);
  if (kind === 1) return Math.round((random() - 0.5) * 1e6) / 100;
  if (kind === 2) return random() < 0.5 ? null : random() < 0.5;
  if (kind === 3)
    return { id: Math.floor(random() * 1e9), title: hostileText(random, 30), [hostileText(random, 3)]: hostileText(random, 5) };
  if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => hostileValue(random, depth + 1));
  return { nested: hostileValue(random, depth + 1), list: [hostileValue(random, depth + 1)] };
}

/** The bytes cut at random places (often one byte apart, so multi-byte characters and escapes are split). */
function randomChunks(bytes: Buffer, random: () => number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = 1 + Math.floor(random() < 0.5 ? random() * 4 : random() * 300);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

function readChunks(chunks: readonly Buffer[]): { items: unknown[]; verdict: ArrayVerdict } {
  const items: unknown[] = [];
  const reader = jsonArrayReader((item, index) => {
    expect(index).toBe(items.length);
    items.push(item);
  });
  for (const chunk of chunks) if (!reader.push(chunk)) break;
  return { items, verdict: reader.end() };
}

describe('jsonArrayReader, fed chunks', () => {
  it('reads what JSON.parse reads of hostile arrays, however the bytes are split (seeded)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const items = Array.from({ length: Math.floor(random() * 12) }, () => hostileValue(random));
      const text = random() < 0.5 ? JSON.stringify(items) : ` \n[ ${items.map((item) => JSON.stringify(item, null, 2)).join(' ,\r\n')} ]\t`;
      const read = readChunks(randomChunks(Buffer.from(text, 'utf8'), random));
      expect(read, `seed ${seed}`).toEqual({ items: JSON.parse(text) as unknown, verdict: 'array' });
    }
  });

  it('refuses broken arrays however they are split, having visited only whole items (seeded)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const items = Array.from({ length: 1 + Math.floor(random() * 8) }, () => hostileValue(random));
      const whole = Buffer.from(JSON.stringify(items), 'utf8');
      // Cut short, or a byte changed to one that breaks JSON: the reader refuses as JSON.parse does.
      const broken =
        random() < 0.5
          ? whole.subarray(0, Math.floor(random() * (whole.length - 1)))
          : Buffer.concat([whole.subarray(0, Math.floor(random() * whole.length)), Buffer.from('}')]);
      const parses = (() => {
        try {
          JSON.parse(broken.toString('utf8'));
          return true;
        } catch {
          return false;
        }
      })();
      if (parses) continue;
      const read = readChunks(randomChunks(broken, random));
      expect(read.verdict, `seed ${seed}`).not.toBe('array');
      expect(read.items, `seed ${seed}`).toEqual(items.slice(0, read.items.length));
    }
  });

  it('tells no array at all from a broken one, so the caller knows when the whole body must be judged', () => {
    const verdict = (...chunks: string[]) => readChunks(chunks.map((chunk) => Buffer.from(chunk, 'utf8'))).verdict;
    expect(verdict('{"id"', ':1}')).toBe('not-an-array');
    expect(verdict('  ', '"[1]"')).toBe('not-an-array');
    expect(verdict('')).toBe('not-an-array');
    expect(verdict('\u00e9', '[1]')).toBe('not-an-array');
    expect(verdict('[1,', '2')).toBe('broken');
    expect(verdict('[1]', ' x')).toBe('broken');
    expect(verdict('[1]\u00a0', '\u00a0')).toBe('array');
    // A byte-order mark split across chunks is still trimmed.
    const bom = Buffer.from('\uFEFF[1]', 'utf8');
    expect(readChunks([bom.subarray(0, 1), bom.subarray(1, 2), bom.subarray(2)])).toEqual({ items: [1], verdict: 'array' });
  });

  it('holds only the unfinished item between chunks', () => {
    const seen: unknown[] = [];
    const reader = jsonArrayReader((item) => seen.push(item));
    reader.push(Buffer.from('[{"a":"x,]'));
    expect(seen).toEqual([]);
    reader.push(Buffer.from('"},2,'));
    expect(seen).toEqual([{ a: 'x,]' }, 2]);
    reader.push(Buffer.from('3]'));
    expect(reader.end()).toBe('array');
    expect(seen).toEqual([{ a: 'x,]' }, 2, 3]);
  });
});
