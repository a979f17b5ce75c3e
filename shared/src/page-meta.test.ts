import { describe, expect, it } from 'vitest';
import { DESCRIPTION_MAX_CHARS, pageMeta, type PageMetaInput, pageTitle } from './page-meta.js';

describe('pageMeta', () => {
  it('titles each page with its heading and the site name', () => {
    expect(pageMeta({ kind: 'home' }).title).toBe('Products Gallery · Catalogue');
    expect(pageMeta({ kind: 'products' }).title).toBe('Our Products · Catalogue');
    expect(pageMeta({ kind: 'products', search: 'bag' }).title).toBe('Our Products · Catalogue');
    expect(pageMeta({ kind: 'product-loading' }).title).toBe('Loading product · Catalogue');
    expect(pageMeta({ kind: 'product-not-found' }).title).toBe('Product not found · Catalogue');
    expect(pageMeta({ kind: 'invalid-id' }).title).toBe('Invalid Product ID · Catalogue');
    expect(pageMeta({ kind: 'not-found' }).title).toBe('Page Not Found · Catalogue');
    expect(pageMeta({ kind: 'error' }).title).toBe('Something went wrong · Catalogue');
  });

  it('titles each page alike through pageTitle, the title alone that the browser sets', () => {
    const product = { id: 1, title: 'Bag', price: 1, description: 'A bag.', category: 'bags', image: '/x' };
    const pages: PageMetaInput[] = [
      { kind: 'home' },
      { kind: 'products', search: 'gold', category: 'jewelery' },
      { kind: 'product', product },
      { kind: 'product-loading' },
      { kind: 'product-not-found' },
      { kind: 'invalid-id' },
      { kind: 'not-found' },
      { kind: 'error' },
    ];
    for (const page of pages) expect(pageTitle(page)).toBe(pageMeta(page).title);
  });

  it('gives every page a non-empty description', () => {
    for (const kind of ['home', 'products', 'product-loading', 'product-not-found', 'invalid-id', 'not-found', 'error'] as const) {
      expect(pageMeta({ kind }).description.length).toBeGreaterThan(10);
    }
    expect(pageMeta({ kind: 'not-found' }).description).toBe('The page you are looking for doesn’t exist or has been moved.');
  });

  it('names the search text in the products description, and only when there is one', () => {
    const plain = pageMeta({ kind: 'products' }).description;
    expect(pageMeta({ kind: 'products', search: '   ' }).description).toBe(plain);
    expect(pageMeta({ kind: 'products', search: '  leather\n bag ' }).description).toBe(
      'Products whose title contains “leather bag”, with their prices and ratings.',
    );
    const long = pageMeta({ kind: 'products', search: 'x'.repeat(500) }).description;
    expect(long.length).toBeLessThan(DESCRIPTION_MAX_CHARS);
    expect(long).toContain('…”');
  });

  it('puts the category first in the title of its list, and names it in the description with any search', () => {
    expect(pageMeta({ kind: 'products', category: 'jewelery' })).toEqual({
      title: 'jewelery · Our Products · Catalogue',
      description: 'Every product in the category “jewelery” with its price and rating; search by title, sort by price or name.',
    });
    expect(pageMeta({ kind: 'products', category: 'jewelery', search: ' gold ' }).description).toBe(
      'Products in the category “jewelery” whose title contains “gold”, with their prices and ratings.',
    );
    expect(pageMeta({ kind: 'products', category: '' })).toEqual(pageMeta({ kind: 'products' }));
    const hostile = `<script>alert('category')</script> 100% "kids"?#`;
    expect(pageMeta({ kind: 'products', category: hostile }).title).toBe(`${hostile} · Our Products · Catalogue`);
    const long = pageMeta({ kind: 'products', category: 'home & garden '.repeat(20), search: 'y'.repeat(200) });
    expect(long.title.length).toBeLessThan(90);
    expect(Array.from(long.description).length).toBeLessThanOrEqual(DESCRIPTION_MAX_CHARS);
  });

  it('titles a product page with the product and describes it with its own text', () => {
    const meta = pageMeta({ kind: 'product', product: { title: 'Mens Casual Slim Fit T-Shirt', description: 'Slim-fitting style.' } });
    expect(meta).toEqual({ title: 'Mens Casual Slim Fit T-Shirt · Catalogue', description: 'Slim-fitting style.' });
  });

  it('cuts a long description at a word, within the limit, with an ellipsis', () => {
    const words =
      'Your perfect pack for everyday use and walks in the forest, stash your laptop (up to 15 inches) in the padded sleeve, your everyday needs and more. '.repeat(
        4,
      );
    const { description } = pageMeta({ kind: 'product', product: { title: 'Backpack', description: words } });
    expect(Array.from(description).length).toBeLessThanOrEqual(DESCRIPTION_MAX_CHARS);
    expect(description.endsWith('…')).toBe(true);
    expect(words.startsWith(description.slice(0, -1))).toBe(true);
    expect(description).not.toMatch(/[ ,.]…$/u);
  });

  it('cuts a description with no spaces mid-word, and never splits a character made of two code units', () => {
    const { description } = pageMeta({ kind: 'product', product: { title: 'T', description: '😀'.repeat(300) } });
    expect(Array.from(description)).toHaveLength(DESCRIPTION_MAX_CHARS);
    expect(description).toBe(`${'😀'.repeat(DESCRIPTION_MAX_CHARS - 1)}…`);
  });

  it('collapses whitespace and line breaks in a description', () => {
    const { description } = pageMeta({ kind: 'product', product: { title: 'T', description: '  Warm\n\n\tand\u00a0dry  ' } });
    expect(description).toBe('Warm and dry');
  });

  it('falls back to the title when a product has no description', () => {
    expect(pageMeta({ kind: 'product', product: { title: 'Plain mug', description: '   ' } }).description).toBe('Plain mug');
    expect(pageMeta({ kind: 'product', product: { title: ' ', description: '' } }).description.length).toBeGreaterThan(10);
  });

  it('leaves hostile text as it is: escaping is the job of whoever writes it into markup', () => {
    const hostile = '</script><script>alert(1)</script>';
    const meta = pageMeta({ kind: 'product', product: { title: hostile, description: '"><img onerror=alert(1)>' } });
    expect(meta.title).toBe(`${hostile} · Catalogue`);
    expect(meta.description).toBe('"><img onerror=alert(1)>');
  });
});
