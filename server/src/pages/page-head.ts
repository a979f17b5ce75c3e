import { type ImageWidth, imageVariantUrl } from '@catalogue/shared/image-widths';
import { type PageMetaInput, pageMeta, SITE_NAME } from '@catalogue/shared/page-meta';
import type { Product } from '@catalogue/shared/product';
import { type ProductPhotoLayout, productPhotoSrcset } from '@catalogue/shared/product-photo';
import { escapeHtml, escapeJsonForScript } from '../bodies/escape-html.js';
import type { PageData } from './page-renderer.js';
import type { PageRoute } from '@catalogue/shared/page-routes';
import { canonicalPath } from './page-route.js';

/** Link previews show a large picture; this variant is sharp on any of them without being a full original. */
const SHARE_IMAGE_WIDTH: ImageWidth = 1280;

export interface PageHeadInput {
  route: PageRoute;
  /** What the page was rendered with; its products carry their public image routes. */
  data: PageData;
  /** `https://shop.example.com`: absolute URLs are written with it. */
  origin: string;
  /** The renderer's `<style>` elements, as they are. */
  styles: string;
  /** The app's and the route's hashed chunks (`.js` listed for the entry to preload, `.css` linked as stylesheets). */
  preloads: readonly string[];
}

/**
 * Everything a page puts at the end of its `<head>`: title and description (shared/src/page-meta.ts), canonical
 * URL, Open Graph and Twitter card, `noindex` on pages that are not content, the JSON-LD `Product` of a product
 * page, the preload of the photo that is the page's largest paint, the route's chunks and the page's styles.
 * Every value from the catalogue is escaped for where it goes (bodies/escape-html.ts).
 */
export function pageHead({ route, data, origin, styles, preloads }: PageHeadInput): string {
  const meta = pageMeta(metaInput(route, data));
  const path = indexable(route, data) ? canonicalPath(route) : null;
  const canonical = path === null ? null : origin + path;
  const photo = leadPhoto(route, data);
  const product = productOf(data);

  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    metaName('description', meta.description),
    canonical === null ? metaName('robots', 'noindex') : `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    metaProperty('og:site_name', SITE_NAME),
    metaProperty('og:type', product ? 'product' : 'website'),
    metaProperty('og:title', meta.title),
    metaProperty('og:description', meta.description),
  ];
  if (canonical !== null) tags.push(metaProperty('og:url', canonical));
  if (photo) {
    tags.push(
      metaProperty('og:image', origin + imageVariantUrl(photo.product.image, SHARE_IMAGE_WIDTH)),
      metaProperty('og:image:alt', photo.product.title),
    );
  }
  if (product) {
    tags.push(metaProperty('product:price:amount', product.price.toFixed(2)), metaProperty('product:price:currency', 'USD'));
  }
  tags.push(metaName('twitter:card', photo ? 'summary_large_image' : 'summary'));
  if (photo) tags.push(photoPreload(photo.product.image, photo.layout));
  const scripts = preloads.filter((url) => !url.endsWith('.css'));
  for (const url of preloads) {
    if (url.endsWith('.css')) tags.push(`<link rel="stylesheet" href="${escapeHtml(url)}">`);
  }
  // The app's scripts are listed, not linked: the entry preloads them once the lead photo is painted
  // (client/src/lib/app-chunks.ts). Linked here, even at low priority, they cost Lighthouse's mobile LCP about 0.7 s
  // (docs/decisions/before-the-app.md, "When the app's bytes load").
  if (scripts.length > 0) tags.push(appChunksBlock(scripts));
  if (product) {
    const jsonLd = escapeJsonForScript(JSON.stringify(productJsonLd(product, origin, canonical)));
    tags.push(`<script type="application/ld+json">${jsonLd}</script>`);
  }
  tags.push(styles);
  return tags.join('');
}

/** The app's and the route's scripts, which the entry preloads (client/src/lib/app-chunks.ts reads it by id). */
function appChunksBlock(scripts: readonly string[]): string {
  return `<script type="application/json" id="app-chunks">${escapeJsonForScript(JSON.stringify(scripts))}</script>`;
}

/** The data block the app hydrates from (client/src/main.tsx reads it by id): JSON, never executable. */
export function stateBlock(state: string): string {
  return `<script type="application/json" id="catalogue-state">${escapeJsonForScript(state)}</script>`;
}

/**
 * schema.org `Product` with its offer, the way search engines read a product page. `aggregateRating` only for a
 * product that has been rated: a rating with no ratings behind it is not one.
 */
export function productJsonLd(product: Product, origin: string, url: string | null): Record<string, unknown> {
  const { title, description, category, price, rating } = product;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: title,
    description,
    image: origin + imageVariantUrl(product.image, SHARE_IMAGE_WIDTH),
    category,
    ...(url !== null && { url }),
    offers: {
      '@type': 'Offer',
      price: price.toFixed(2),
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
      ...(url !== null && { url }),
    },
    ...(rating !== undefined &&
      rating.count > 0 && {
        aggregateRating: { '@type': 'AggregateRating', ratingValue: rating.rate, ratingCount: rating.count, bestRating: 5, worstRating: 0 },
      }),
  };
}

function metaInput(route: PageRoute, data: PageData): PageMetaInput {
  switch (route.kind) {
    case 'home':
      return { kind: 'home' };
    case 'products':
      return { kind: 'products', search: route.search, category: route.category };
    case 'product': {
      const product = productOf(data);
      // A failed request shows 'Product not found' too (docs/product.md, "Product detail").
      return product ? { kind: 'product', product } : { kind: 'product-not-found' };
    }
    case 'invalid-id':
      return { kind: 'invalid-id' };
    case 'not-found':
      return { kind: 'not-found' };
  }
}

/**
 * Pages with content of their own; error pages are `noindex` and have no canonical URL, and so is the list of a
 * category the catalogue does not hold (or a list that could not load with a category asked for).
 */
function indexable(route: PageRoute, data: PageData): boolean {
  switch (route.kind) {
    case 'home':
      return true;
    case 'products': {
      const shown = typeof data.productsPage === 'object' ? data.productsPage : undefined;
      const held = route.category === '' || shown?.categories.includes(route.category) === true;
      // A page past the last one (a stale link after the catalogue shrank) is not content either.
      return held && (route.page === 1 || (shown !== undefined && shown.page.items.length > 0));
    }
    case 'product':
      return productOf(data) !== undefined;
    case 'invalid-id':
    case 'not-found':
      return false;
  }
}

function productOf(data: PageData): Product | undefined {
  return typeof data.product === 'object' ? data.product : undefined;
}

/**
 * The photo the visitor sees first, which is the page's largest paint: the detail photo, the carousel's first
 * slide, the first card of the list as searched and sorted. Preloaded, and the picture of link previews.
 */
function leadPhoto(route: PageRoute, data: PageData): { product: Product; layout: ProductPhotoLayout } | undefined {
  const product = productOf(data);
  if (product) return { product, layout: 'detail' };
  if (typeof data.productsPage !== 'object') return undefined;
  const first = data.productsPage.page.items[0];
  if (route.kind === 'home') return first && { product: first, layout: 'carousel' };
  if (route.kind === 'products') return first && { product: first, layout: 'grid' };
  return undefined;
}

/** The same srcset and sizes as the page's `<img>` (shared/src/product-photo.ts), so the photo is fetched once. */
function photoPreload(image: string, layout: ProductPhotoLayout): string {
  const { srcSet, sizes } = productPhotoSrcset(image, layout);
  return `<link rel="preload" as="image" imagesrcset="${escapeHtml(srcSet)}" imagesizes="${escapeHtml(sizes)}" fetchpriority="high">`;
}

function metaName(name: string, content: string): string {
  return `<meta name="${name}" content="${escapeHtml(content)}">`;
}

function metaProperty(property: string, content: string): string {
  return `<meta property="${property}" content="${escapeHtml(content)}">`;
}
