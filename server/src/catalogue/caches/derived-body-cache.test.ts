import { describe, expect, it } from 'vitest';
import { createDerivedBodyCache, type DerivedBodyCache } from './derived-body-cache.js';
import { encodeBody, type EncodedBody } from '../../bodies/encoded-body.js';
import { bytesOf } from '../../testing/body-bytes.js';

const body = (text: string) => encodeBody(Buffer.from(text));

/** The body kept for `key` from `madeFrom`, or undefined when asking for it had to derive one (keeping nothing). */
async function kept(cache: DerivedBodyCache, key: string, madeFrom: EncodedBody): Promise<EncodedBody | undefined> {
  let derived = false;
  const got = await cache.get(key, madeFrom, () => ((derived = true), body('derived')), false);
  return derived ? undefined : got;
}

describe('createDerivedBodyCache', () => {
  it('keeps a page only for the catalogue entry it was rendered from', async () => {
    const cache = createDerivedBodyCache(1024 * 1024);
    const [oldList, newList] = [await body('[1]'), await body('[1,2]')];
    const page = await cache.get('/', oldList, () => body('<p>one</p>'), true);
    expect(await kept(cache, '/', oldList)).toBe(page);
    expect(await kept(cache, '/', newList)).toBeUndefined();
    const renewed = await cache.get('/', newList, () => body('<p>two</p>'), true);
    expect(bytesOf(renewed.identity).toString()).toBe('<p>two</p>');
    expect(await kept(cache, '/', oldList)).toBeUndefined();
  });

  it('shares one render among concurrent requests for one page and source', async () => {
    const cache = createDerivedBodyCache(1024 * 1024);
    const source = await body('[]');
    let renders = 0;
    let finish!: (page: EncodedBody) => void;
    const render = () => {
      renders += 1;
      return new Promise<EncodedBody>((resolve) => (finish = resolve));
    };
    const waiting = [cache.get('/', source, render, true), cache.get('/', source, render, true), cache.get('/', source, render, true)];
    finish(await body('<p>page</p>'));
    const pages = await Promise.all(waiting);
    expect(renders).toBe(1);
    expect(new Set(pages).size).toBe(1);
  });

  it('renders again after a failed render, and keeps nothing from it', async () => {
    const cache = createDerivedBodyCache(1024 * 1024);
    const source = await body('[]');
    await expect(cache.get('/', source, () => Promise.reject(new Error('render failed')), true)).rejects.toThrow('render failed');
    expect(await kept(cache, '/', source)).toBeUndefined();
    const page = await cache.get('/', source, () => body('<p>ok</p>'), true);
    expect(await kept(cache, '/', source)).toBe(page);
  });

  it('does not keep what it is told not to', async () => {
    const cache = createDerivedBodyCache(1024 * 1024);
    const source = await body('[]');
    await cache.get('/products?utm_source=x', source, () => body('<p>page</p>'), false);
    expect(await kept(cache, '/products?utm_source=x', source)).toBeUndefined();
  });

  it('stays within its byte budget, dropping the least recently used page', async () => {
    const source = await body('[]');
    const page = await body('x'.repeat(4000));
    const size = page.identity.length + page.gzip.length + page.br.length;
    const cache = createDerivedBodyCache(size * 2 + 10);
    await cache.get('/a', source, () => Promise.resolve(page), true);
    await cache.get('/b', source, () => Promise.resolve(page), true);
    await kept(cache, '/a', source);
    await cache.get('/c', source, () => Promise.resolve(page), true);
    expect(await kept(cache, '/a', source)).toBe(page);
    expect(await kept(cache, '/b', source)).toBeUndefined();
    expect(await kept(cache, '/c', source)).toBe(page);
  });
});
