import { PAGE_PATHS, productDetailsPath, productsInCategoryPath } from '@catalogue/shared/routes';
import { escapeHtml } from '../http/escape-html.js';

/** The sitemap protocol's limit of URLs per file; beyond it, /sitemap.xml becomes an index of numbered files. */
export const SITEMAP_MAX_URLS = 50_000;

/** The numbered files an index points at: `/sitemap-1.xml`, `/sitemap-2.xml`, … */
export function sitemapPagePath(page: number): string {
  return `/sitemap-${page}.xml`;
}

export interface SitemapInput {
  /** `https://shop.example.com`. */
  origin: string;
  /** The products' ids, in catalogue order. */
  productIds: readonly number[];
  /** The catalogue's categories, in catalogue order (shared/src/categories.ts): each has its list. */
  categories: readonly string[];
  /** When the catalogue was filled: every page's content comes from it. */
  lastModified: Date;
}

/**
 * `/sitemap.xml`: every page's absolute URL (home, the products list, each category's list, each product's page)
 * with `lastmod`; with more than SITEMAP_MAX_URLS of them, an index of the numbered files instead (sitemapPage).
 */
export function sitemapXml(input: SitemapInput): string {
  const pages = pageCount(input);
  if (pages === 1) return urlSet(input, allPaths(input));
  const lastmod = input.lastModified.toISOString();
  const entries = Array.from(
    { length: pages },
    (_, index) => `<sitemap><loc>${escapeHtml(input.origin + sitemapPagePath(index + 1))}</loc><lastmod>${lastmod}</lastmod></sitemap>`,
  );
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">${entries.join('')}</sitemapindex>\n`;
}

/** One numbered file of a sitemap index (1-based), or undefined when there is no such file. */
export function sitemapPage(input: SitemapInput, page: number): string | undefined {
  const pages = pageCount(input);
  if (pages === 1 || !Number.isSafeInteger(page) || page < 1 || page > pages) return undefined;
  return urlSet(input, allPaths(input).slice((page - 1) * SITEMAP_MAX_URLS, page * SITEMAP_MAX_URLS));
}

/** `/robots.txt`: everything may be crawled but the JSON API (its product photos excepted); where the sitemap is. */
export function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Disallow: /api/', 'Allow: /api/products/*/image', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** Home and the list, each category's list, then every product's page, in files of at most SITEMAP_MAX_URLS. */
function pageCount({ productIds, categories }: SitemapInput): number {
  return Math.ceil((2 + categories.length + productIds.length) / SITEMAP_MAX_URLS);
}

function allPaths({ productIds, categories }: SitemapInput): string[] {
  return [PAGE_PATHS.home, PAGE_PATHS.products, ...categories.map(productsInCategoryPath), ...productIds.map(productDetailsPath)];
}

function urlSet({ origin, lastModified }: SitemapInput, paths: readonly string[]): string {
  const lastmod = lastModified.toISOString();
  const entries = paths.map((path) => `<url><loc>${escapeHtml(origin + path)}</loc><lastmod>${lastmod}</lastmod></url>`);
  return `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">${entries.join('')}</urlset>\n`;
}
