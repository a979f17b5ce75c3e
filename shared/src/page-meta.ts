import { PAGE_MESSAGES } from './messages.js';
import type { Product } from './product.js';

/**
 * Each page's title and description, written once: the server puts them in `<title>`, the meta description and
 * Open Graph; the browser sets `document.title` from the same rule when it navigates, so both always agree.
 * The tab title is the page's heading followed by `· Catalogue` (docs/product.md, "Routes and layout").
 */
export const SITE_NAME = 'Catalogue';

export type PageMetaInput =
  | { kind: 'home' }
  /**
   * `search` is the search text of `/products?q=`, as typed (blank means no search); `category` the name of
   * `?category=`, exact (empty means every category).
   */
  | { kind: 'products'; search?: string; category?: string }
  | { kind: 'product'; product: Pick<Product, 'title' | 'description'> }
  | { kind: 'product-loading' }
  | { kind: 'product-not-found' }
  | { kind: 'invalid-id' }
  | { kind: 'not-found' }
  /** The app's error boundary caught something. */
  | { kind: 'error' };

export interface PageMeta {
  /** The whole tab title, suffix included. */
  title: string;
  description: string;
}

/** Search engines show about this many characters of a description; longer ones are cut at a word. */
export const DESCRIPTION_MAX_CHARS = 160;
/** A search text or category name quoted in a title or description is cut shorter, so the sentence around it survives. */
const QUERY_MAX_CHARS = 60;
const PRODUCTS_HEADING = 'Our Products';

const SITE_DESCRIPTION = 'A catalogue of products with their prices and ratings: browse, search and sort them.';

export function pageMeta(input: PageMetaInput): PageMeta {
  return { title: pageTitle(input), description: descriptionOf(input) };
}

/**
 * The tab title alone, as the browser sets it while the visitor moves between pages: a function of its own so that
 * the descriptions, which only the server writes, stay out of the app's bundle.
 */
export function pageTitle(input: PageMetaInput): string {
  return `${headingOf(input)} · ${SITE_NAME}`;
}

function headingOf(input: PageMetaInput): string {
  switch (input.kind) {
    case 'home':
      return 'Products Gallery';
    case 'products': {
      // A category's list is a page of its own: its name comes first in the tab title, where a tab shows it.
      const category = clip(collapse(input.category ?? ''), QUERY_MAX_CHARS);
      return category ? `${category} · ${PRODUCTS_HEADING}` : PRODUCTS_HEADING;
    }
    case 'product':
      return input.product.title;
    case 'product-loading':
      return 'Loading product';
    case 'product-not-found':
      return PAGE_MESSAGES.productNotFound;
    case 'invalid-id':
      return PAGE_MESSAGES.invalidProductId;
    case 'not-found':
      return PAGE_MESSAGES.pageNotFound;
    case 'error':
      return 'Something went wrong';
  }
}

function descriptionOf(input: PageMetaInput): string {
  switch (input.kind) {
    case 'home':
      return 'Featured products from the catalogue, with every product a click away: prices, ratings and photos.';
    case 'products': {
      const query = clip(collapse(input.search ?? ''), QUERY_MAX_CHARS);
      const category = clip(collapse(input.category ?? ''), QUERY_MAX_CHARS);
      // With both a long category and a long search the sentence could outgrow what search engines show.
      return clip(productsDescription(query, category), DESCRIPTION_MAX_CHARS);
    }
    case 'product': {
      const text = clip(collapse(input.product.description), DESCRIPTION_MAX_CHARS);
      return text || clip(collapse(input.product.title), DESCRIPTION_MAX_CHARS) || SITE_DESCRIPTION;
    }
    case 'product-loading':
    case 'error':
      return SITE_DESCRIPTION;
    case 'product-not-found':
      return 'This product is not in the catalogue.';
    case 'invalid-id':
      return 'Product pages are addressed by a number.';
    case 'not-found':
      return PAGE_MESSAGES.pageNotFoundDetail;
  }
}

function productsDescription(query: string, category: string): string {
  if (category && query) return `Products in the category “${category}” whose title contains “${query}”, with their prices and ratings.`;
  if (category) return `Every product in the category “${category}” with its price and rating; search by title, sort by price or name.`;
  if (query) return `Products whose title contains “${query}”, with their prices and ratings.`;
  return 'Every product in the catalogue with its price and rating; search by title, sort by price or name.';
}

/** Runs of whitespace (newlines, tabs, non-breaking spaces) become one space; the ends are trimmed. */
function collapse(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/**
 * At most `max` characters (counted in code points, so an emoji is never split): cut at the last space that keeps
 * at least half the text, else mid-word, then an ellipsis; trailing punctuation before the ellipsis is dropped.
 */
function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space >= head.length / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,.;:!?–—-]+$/u, '')}…`;
}
