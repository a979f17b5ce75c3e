import { describe, expect, it } from 'vitest';
import { chooseEncoding } from './accept-encoding.js';

describe('chooseEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0', 'identity'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['GZIP; Q=0.8', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['gzip;q=abc', 'identity'],
  ])('%j → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});
