import { PAGE_PATHS, productDetailsPath, productsInCategoryPath } from '@catalogue/shared/routes';
import { escapeHtml } from '../../bodies/escape-html.js';

/** The sitemap protocol's limit of URLs per file; beyond it, /sitemap.xml becomes an index of numbered files. */
export const SITEMAP_MAX_URLS = 50_000;

/** The numbered files an index points at: `/sitemap-1.xml`, `/sitemap-2.xml`, … */
export function sitemapPagePath(page: number): string {
  return `/sitemap-${page}.xml`;
}

export interface SitemapInput {
  /** `https://shop.example.com`. */
  origin: string;
  /** How many products the catalogue holds. */
  productCount: number;
  /**
   * The ids of `limit` products from the `offset`th, in catalogue order: one file's worth is read at a time, never
   * 200,000 at once (docs/performance.md, "A large catalogue").
   */
  productIds: (offset: number, limit: number) => readonly number[];
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
  if (pages === 1) return urlSet(input, pathsOfFile(input, 1));
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
  return urlSet(input, pathsOfFile(input, page));
}

/** `/robots.txt`: everything may be crawled but the JSON API (its product photos excepted); where the sitemap is. */
export function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Disallow: /api/', 'Allow: /api/products/*/image', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** Home and the list, each category's list, then every product's page, in files of at most SITEMAP_MAX_URLS. */
function pageCount({ productCount, categories }: SitemapInput): number {
  return Math.ceil((2 + categories.length + productCount) / SITEMAP_MAX_URLS);
}

/** The paths of one file (1-based): its part of the lists' paths, then its part of the products'. */
function pathsOfFile({ categories, productIds }: SitemapInput, page: number): string[] {
  const lists = [PAGE_PATHS.home, PAGE_PATHS.products, ...categories.map(productsInCategoryPath)];
  const from = (page - 1) * SITEMAP_MAX_URLS;
  const paths = lists.slice(from, from + SITEMAP_MAX_URLS);
  const firstProduct = Math.max(0, from - lists.length);
  return paths.concat(productIds(firstProduct, SITEMAP_MAX_URLS - paths.length).map(productDetailsPath));
}

function urlSet({ origin, lastModified }: SitemapInput, paths: readonly string[]): string {
  const lastmod = lastModified.toISOString();
  const entries = paths.map((path) => `<url><loc>${escapeHtml(origin + path)}</loc><lastmod>${lastmod}</lastmod></url>`);
  return `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">${entries.join('')}</urlset>\n`;
}
