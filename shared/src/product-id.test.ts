import { describe, expect, it } from 'vitest';
import { parseProductId } from './product-id.js';

describe('parseProductId', () => {
  it.each([
    ['1', 1],
    ['20', 20],
    ['007', 7],
    ['0', 0],
    [String(Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER],
  ])('accepts the digits %j as %d', (raw, id) => {
    expect(parseProductId(raw)).toBe(id);
  });

  it.each(['abc', '1.5', '-1', '+1', '1e3', ' 1', '1 ', '', '0x10', '١٢', '1'.repeat(40), String(Number.MAX_SAFE_INTEGER + 1)])(
    'rejects %j',
    (raw) => {
      expect(parseProductId(raw)).toBeNull();
    },
  );

  it('rejects a missing id', () => {
    expect(parseProductId(undefined)).toBeNull();
  });
});
