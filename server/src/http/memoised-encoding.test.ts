import { describe, expect, it } from 'vitest';
import { chooseEncoding } from './accept-encoding.js';
import { createMemoisedEncodingChooser } from './memoised-encoding.js';

const HEADERS = [
  undefined,
  '',
  'gzip',
  'gzip, deflate, br',
  'br;q=0.5, gzip',
  'gzip;q=0',
  'GZIP; Q=0.8',
  '*',
  'br;q=0, *',
  'deflate',
  'gzip;q=abc',
];

describe('createMemoisedEncodingChooser', () => {
  it('agrees with chooseEncoding, the first time and from memory', () => {
    const choose = createMemoisedEncodingChooser();
    for (let pass = 0; pass < 2; pass += 1) {
      for (const header of HEADERS) expect(choose(header)).toBe(chooseEncoding(header));
    }
  });

  it('still agrees past the headers it keeps', () => {
    const choose = createMemoisedEncodingChooser();
    for (let index = 0; index < 200; index += 1) {
      const header = index % 2 === 0 ? `gzip;q=0.${index % 10}, br;q=0.${(index + 5) % 10}` : `x-${index}, gzip;q=0`;
      expect(choose(header)).toBe(chooseEncoding(header));
      expect(choose(header)).toBe(chooseEncoding(header));
    }
  });
});
