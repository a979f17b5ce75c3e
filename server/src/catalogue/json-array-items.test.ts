import { describe, expect, it } from 'vitest';
import { eachJsonArrayItem } from './json-array-items.js';

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
      '["unterminated]',
      '["a\\"]',
      '[{"a":"line\nbreak"}]',
      '\uFEFF[1]',
      '\u00a0[1]',
      '[1]\u00a0',
    ]) {
      expect(itemsOf(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('reports the items before a broken one, then refuses', () => {
    const items: unknown[] = [];
    expect(eachJsonArrayItem(Buffer.from('[1,{"a":2},{"b":'), (item) => items.push(item))).toBe(false);
    expect(items).toEqual([1, { a: 2 }]);
  });
});
