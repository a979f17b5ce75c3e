import { describe, expect, it } from 'vitest';
import { createDerivedBodyCache } from './derived-body-cache.js';
import { encodeBody, type EncodedBody } from '../bodies/encoded-body.js';
import { bytesOf } from '../testing/body-bytes.js';

const body = (text: string) => encodeBody(Buffer.from(text));

describe('createDerivedBodyCache', () => {
  it('keeps a page only for the catalogue entry it was rendered from', async () => {
    const cache = createDerivedBodyCache(1024 * 1024);
    const [oldList, newList] = [await body('[1]'), await body('[1,2]')];
    const page = await cache.get('/', oldList, () => body('<p>one</p>'), true);
    expect(cache.peek('/', oldList)).toBe(page);
    expect(cache.peek('/', newList)).toBeUndefined();
    const renewed = await cache.get('/', newList, () => body('<p>two</p>'), true);
    expect(bytesOf(renewed.identity).toString()).toBe('<p>two</p>');
    expect(cache.peek('/', oldList)).toBeUndefined();
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
    expect(cache.peek('/', source)).toBeUndefined();
    const page = await cache.get('/', source, () => body('<p>ok</p>'), true);
    expect(cache.peek('/', source)).toBe(page);
  });

  it('does not keep what it is told not to', async () => {
    const cache = createDerivedBodyCache(1024 * 1024);
    const source = await body('[]');
    await cache.get('/products?utm_source=x', source, () => body('<p>page</p>'), false);
    expect(cache.peek('/products?utm_source=x', source)).toBeUndefined();
  });

  it('stays within its byte budget, dropping the least recently used page', async () => {
    const source = await body('[]');
    const page = await body('x'.repeat(4000));
    const size = page.identity.length + page.gzip.length + page.br.length;
    const cache = createDerivedBodyCache(size * 2 + 10);
    await cache.get('/a', source, () => Promise.resolve(page), true);
    await cache.get('/b', source, () => Promise.resolve(page), true);
    cache.peek('/a', source);
    await cache.get('/c', source, () => Promise.resolve(page), true);
    expect(cache.peek('/a', source)).toBe(page);
    expect(cache.peek('/b', source)).toBeUndefined();
    expect(cache.peek('/c', source)).toBe(page);
  });
});
