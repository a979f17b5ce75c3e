import { describe, expect, it } from 'vitest';
import { robotsTxt, SITEMAP_MAX_URLS, type SitemapInput, sitemapPage, sitemapXml } from './sitemap.js';

const lastModified = new Date(Date.UTC(2026, 10, 21, 9, 30, 0));

/** A catalogue of these ids, as the sitemap reads one: its count, and a slice at a time. */
function ofIds(ids: readonly number[]): Pick<SitemapInput, 'productCount' | 'productIds'> {
  return { productCount: ids.length, productIds: (offset, limit) => ids.slice(offset, offset + limit) };
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);
}

describe('sitemapXml', () => {
  it('lists every page with the fill time as lastmod while it fits in one file', () => {
    const xml = sitemapXml({ origin: 'https://shop.example.com', ...ofIds([3, 1, 2]), categories: [], lastModified });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(
      true,
    );
    expect(locs(xml)).toEqual([
      'https://shop.example.com/',
      'https://shop.example.com/products',
      'https://shop.example.com/productdetails/3',
      'https://shop.example.com/productdetails/1',
      'https://shop.example.com/productdetails/2',
    ]);
    expect(xml.match(/<lastmod>2026-11-21T09:30:00\.000Z<\/lastmod>/g)).toHaveLength(5);
    expect(sitemapPage({ origin: 'https://shop.example.com', ...ofIds([1]), categories: ['mugs'], lastModified }, 1)).toBeUndefined();
  });

  it("lists each category's list after the products list, its name encoded for the URL and escaped for XML", () => {
    const hostile = `<script>alert('category')</script> 100% "kids"?#`;
    const categories = ["men's clothing", 'home & garden/outdoor 🏕️', hostile];
    const xml = sitemapXml({ origin: 'https://shop.example.com', ...ofIds([1]), categories, lastModified });
    expect(locs(xml)).toEqual([
      'https://shop.example.com/',
      'https://shop.example.com/products',
      'https://shop.example.com/products?category=men%27s+clothing',
      'https://shop.example.com/products?category=home+%26+garden%2Foutdoor+%F0%9F%8F%95%EF%B8%8F',
      'https://shop.example.com/products?category=%3Cscript%3Ealert%28%27category%27%29%3C%2Fscript%3E+100%25+%22kids%22%3F%23',
      'https://shop.example.com/productdetails/1',
    ]);
    // Read back as a crawler does: the URL's own parameter is the category, whole.
    expect(
      locs(xml)
        .slice(2, 5)
        .map((loc) => new URL(loc).searchParams.get('category')),
    ).toEqual(categories);
    expect(xml).not.toMatch(/<script|&(?!amp;|lt;|gt;|quot;|#39;)/);
  });

  it('becomes an index of numbered files past 50,000 URLs, each file within the limit, every page listed once', () => {
    const productIds = Array.from({ length: SITEMAP_MAX_URLS + 10 }, (_, index) => index + 1);
    const input = { origin: 'https://shop.example.com', ...ofIds(productIds), categories: ['a', 'b'], lastModified };
    const index = sitemapXml(input);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index)).toEqual(['https://shop.example.com/sitemap-1.xml', 'https://shop.example.com/sitemap-2.xml']);
    const files = [1, 2].map((page) => sitemapPage(input, page)!);
    expect(files.map((file) => locs(file).length)).toEqual([SITEMAP_MAX_URLS, 14]);
    const all = files.flatMap(locs);
    expect(all.slice(0, 5)).toEqual([
      'https://shop.example.com/',
      'https://shop.example.com/products',
      'https://shop.example.com/products?category=a',
      'https://shop.example.com/products?category=b',
      'https://shop.example.com/productdetails/1',
    ]);
    expect(all.at(-1)).toBe(`https://shop.example.com/productdetails/${productIds.at(-1)}`);
    expect(new Set(all).size).toBe(productIds.length + 4);
    for (const page of [0, 3, 1.5, Number.NaN]) expect(sitemapPage(input, page)).toBeUndefined();
  });

  it('stays one file at exactly 50,000 URLs', () => {
    const productIds = Array.from({ length: SITEMAP_MAX_URLS - 3 }, (_, index) => index + 1);
    expect(locs(sitemapXml({ origin: 'http://localhost:3000', ...ofIds(productIds), categories: ['one'], lastModified }))).toHaveLength(
      SITEMAP_MAX_URLS,
    );
  });
});

describe('robotsTxt', () => {
  it('names the sitemap on the origin', () => {
    expect(robotsTxt('http://localhost:3000')).toContain('Sitemap: http://localhost:3000/sitemap.xml\n');
  });
});
