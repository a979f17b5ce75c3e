import { describe, expect, it, vi } from 'vitest';
import { matchPageRoute } from '@catalogue/shared/page-routes';
import { matchPage, PAGES } from './router';

/**
 * The server resolves page requests with the shared table's own matcher (matchPageRoute); the browser, with React
 * Router over the same table. Here both read every path built from awkward segments — letter case, escapes of digits
 * and of `/`, malformed and multi-byte escapes, dots, spaces, characters that mean something in a pattern — one to
 * three segments deep, with and without trailing slashes, and must name the same page with the same parameters.
 */
const SEGMENTS = [
  '',
  'products',
  'PRODUCTS',
  'productdetails',
  'ProductDetails',
  '7',
  '007',
  '%37',
  'a%2Fb',
  '%2F',
  '%E0%A4%A',
  'caf%C3%A9',
  '%70roducts',
  'x y',
  '.',
  '..',
  '*',
  ':id',
  '(a)',
  '%',
];

function pathsOf(depth: number): string[] {
  if (depth === 0) return [''];
  return pathsOf(depth - 1).flatMap((prefix) => SEGMENTS.map((segment) => `${prefix}/${segment}`));
}

const PATHS = [1, 2, 3].flatMap(pathsOf).flatMap((path) => [path, `${path}/`, `${path}//`]);

describe('the page route table', () => {
  it(`is read alike by React Router and by the server (${PATHS.length.toLocaleString('en')} paths)`, () => {
    // React Router warns on the console about each malformed escape it leaves undecoded, as the server's reading does.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const pages = new Set<string>();
      for (const path of PATHS) {
        const server = matchPageRoute(path);
        const browser = matchPage(path);
        expect(browser.page, path).toBe(PAGES[server.page]);
        expect({ ...browser.params }, path).toEqual(server.params);
        pages.add(server.page);
      }
      // The paths reach every page, so the comparison covers each pattern.
      expect([...pages].sort()).toEqual(['home', 'notFound', 'productDetails', 'products']);
    } finally {
      warn.mockRestore();
    }
  });
});
