import { DatabaseSync } from 'node:sqlite';
import type { Product } from '@catalogue/shared/product';
import { searchableText } from '@catalogue/shared/sort';
import { MIN_RATINGS, shownRate } from '@catalogue/shared/product-filters';
import { toPublicProduct } from './public-product.js';

/**
 * The catalogue's SQLite database (docs/decisions/catalogue-in-sqlite.md): one file a fill, written once by
 * catalogueWriter in a fill's process, then only read (catalogue-queries.ts). Two tables, so that what a search scans
 * is narrow: `products` holds what filters and orders read, one short row a product; `product_json` the public
 * JSON every answer is cut from and the source's own image location, read a page at a time.
 *
 * `pos` is the product's place in the source's list (its rowid): the catalogue's order, and every sort's tie-break,
 * as filterAndSortProducts's stable sort keeps ties (shared/src/product-paging.ts). `name_rank` is the title's place under
 * the same collation as `localeCompare`, computed once here, equal for titles that compare equal. `lower_title` is
 * the title in the lower case the search rule compares (shared/src/sort.ts), and `title_trigrams` indexes it by
 * trigrams, exactly as stored (case_sensitive 1), so a needle of three characters or more is looked up through the
 * index (catalogue-queries.ts). `rate` is the rate the rating filter reads: the one the list's cards show, the
 * default for a product the upstream sends without a rating (shared/src/product-filters.ts).
 *
 * The counts' order (catalogue-queries.ts, facetRowsOf): `facet_order` numbers the products again, `fpos`, by
 * category, then rating step (how many of MIN_RATINGS the rate reaches), then price, then `pos`, and holds each one's
 * searched title. `title_trigrams` indexes those titles under `fpos`, so each (category, step) is one range of its
 * rowids and, inside it, a price range is a narrower one: a needle's matches in a range are a run of its ascending
 * `fpos`. The index keeps each trigram's positions (detail = full), so a needle of three characters or more is one
 * phrase, its trigrams at consecutive positions, answered by the index alone, no title read. `facet_groups` holds
 * each (category, step)'s range; `facet_columns` every price (doubles) and every `pos` (32-bit integers) in `fpos`
 * order, as two blobs (2.4 MB at 200,000 products), which the reader holds to find a price range's `fpos` and the
 * product each `fpos` is.
 */
const SCHEMA = `
  CREATE TABLE products (
    pos INTEGER PRIMARY KEY,
    id INTEGER NOT NULL,
    price REAL NOT NULL,
    category INTEGER NOT NULL,
    name_rank INTEGER NOT NULL,
    lower_title TEXT NOT NULL,
    rate REAL NOT NULL
  );
  CREATE TABLE product_json (pos INTEGER PRIMARY KEY, json TEXT NOT NULL, source_image TEXT NOT NULL);
  CREATE TABLE categories (number INTEGER PRIMARY KEY, name TEXT NOT NULL, size INTEGER NOT NULL);
  CREATE TABLE facet_order (fpos INTEGER PRIMARY KEY, lower_title TEXT NOT NULL);
  CREATE TABLE facet_groups (category INTEGER NOT NULL, step INTEGER NOT NULL, first INTEGER NOT NULL, size INTEGER NOT NULL);
  CREATE TABLE facet_columns (prices BLOB NOT NULL, places BLOB NOT NULL);
  CREATE VIRTUAL TABLE title_trigrams USING fts5(
    lower_title, content = 'facet_order', content_rowid = 'fpos', tokenize = 'trigram case_sensitive 1', detail = full
  );
`;

/** Made once the rows are in: each order's index, with and without the category in front (a covering walk). */
const INDEXES = `
  CREATE INDEX by_id ON products (id, pos);
  CREATE INDEX by_price ON products (price, pos);
  CREATE INDEX by_price_desc ON products (price DESC, pos);
  CREATE INDEX by_name ON products (name_rank, pos);
  CREATE INDEX by_category ON products (category, pos);
  CREATE INDEX by_category_price ON products (category, price, pos);
  CREATE INDEX by_category_price_desc ON products (category, price DESC, pos);
  CREATE INDEX by_category_name ON products (category, name_rank, pos);
  -- FTS5 writes its terms and their positions out as a segment each time it holds more than 'hashsize' of them (1 MB
  -- by default), and 'optimize' merges the segments into one. At 200,000 products the rebuild and the merge took 3.4 s
  -- together at 32 MB (a few segments) as at 128 MB (one), and 4 s at 1 MB: 32 MB bounds the fill's memory.
  INSERT INTO title_trigrams (title_trigrams, rank) VALUES ('hashsize', 33554432);
  INSERT INTO title_trigrams (title_trigrams) VALUES ('rebuild');
  -- One segment: a count over a range of rowids then seeks once, not in each of the segments a rebuild leaves.
  INSERT INTO title_trigrams (title_trigrams) VALUES ('optimize');
  PRAGMA analysis_limit = 1000;
  ANALYZE;
`;

/** What the request thread knows of a filled database without asking it. */
export interface CatalogueShape {
  size: number;
  /** In the catalogue's order of first appearance (shared/src/categories.ts). */
  categories: string[];
  /** How many products each of `categories` holds. */
  categorySizes: number[];
  /**
   * Whether a title holds a NUL. The trigram index reads past one, so the characters either side of it are
   * neighbours there: it then finds a superset of the titles holding a trigram, which `instr` must check.
   */
  titlesHoldNul: boolean;
}

export interface CatalogueWriter {
  /** One valid product, in the source's order; its public JSON, as stored. */
  add(product: Product): string;
  /** Ranks the titles, writes the narrow rows, indexes, commits and closes the file: the catalogue is then only read. */
  finish(): CatalogueShape;
  /** Closes the file unfinished (a failed fill); the caller removes it. */
  abandon(): void;
}

/** A rate's step: how many of MIN_RATINGS it reaches, so `rate >= min` is `step >= ratingStep(min)` for each of them. */
export function ratingStep(rate: number): number {
  return MIN_RATINGS.filter((min) => rate >= min).length;
}

/** Numbers the products in the counts' order and writes `facet_order`, `facet_groups` and `facet_columns` (see SCHEMA). */
function writeFacetOrder(
  db: DatabaseSync,
  lowerTitles: readonly string[],
  held: { prices: readonly number[]; categories: readonly number[]; rates: readonly number[] },
): void {
  const { prices, categories } = held;
  const steps = held.rates.map(ratingStep);
  const order = lowerTitles
    .map((_, pos) => pos)
    .sort((a, b) => categories[a]! - categories[b]! || steps[a]! - steps[b]! || prices[a]! - prices[b]! || a - b);
  const insertRow = db.prepare('INSERT INTO facet_order (fpos, lower_title) VALUES (?, ?)');
  const insertGroup = db.prepare('INSERT INTO facet_groups (category, step, first, size) VALUES (?, ?, ?, ?)');
  const ordered = new Float64Array(order.length);
  let groupFirst = 0;
  for (const [fpos, pos] of order.entries()) {
    insertRow.run(fpos, lowerTitles[pos]!);
    ordered[fpos] = prices[pos]!;
    const next = order[fpos + 1];
    if (next === undefined || categories[next] !== categories[pos] || steps[next] !== steps[pos]) {
      insertGroup.run(categories[pos]!, steps[pos]!, groupFirst, fpos + 1 - groupFirst);
      groupFirst = fpos + 1;
    }
  }
  const places = Uint32Array.from(order);
  db.prepare('INSERT INTO facet_columns (prices, places) VALUES (?, ?)').run(new Uint8Array(ordered.buffer), new Uint8Array(places.buffer));
}

/** The name order's collator: what `a.localeCompare(b)` compares with, made once. */
const byName = new Intl.Collator().compare;

/**
 * Writes a new catalogue file at `file` (which must not exist). The rows go in one transaction, with the journal off
 * and no syncs: a fill that fails leaves a file nobody opens, and only a file `finish` returned is switched to.
 */
export function catalogueWriter(file: string): CatalogueWriter {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -16000;');
  db.exec(SCHEMA);
  db.exec('BEGIN');
  const insertJson = db.prepare('INSERT INTO product_json (pos, json, source_image) VALUES (?, ?, ?)');
  const categories = new Map<string, { number: number; size: number }>();
  // What the narrow rows need, held until the titles are ranked, so each row is written once, whole: a few
  // megabytes at 200,000 products.
  const held = { titles: [] as string[], ids: [] as number[], prices: [] as number[], categories: [] as number[], rates: [] as number[] };

  return {
    add(product) {
      const pos = held.titles.length;
      let category = categories.get(product.category);
      if (category === undefined) categories.set(product.category, (category = { number: categories.size, size: 0 }));
      category.size += 1;
      held.titles.push(product.title);
      held.ids.push(product.id);
      held.prices.push(product.price);
      held.categories.push(category.number);
      held.rates.push(shownRate(product));
      const json = JSON.stringify(toPublicProduct(product));
      insertJson.run(pos, json, product.image);
      return json;
    },

    finish() {
      const { titles } = held;
      const order = titles.map((_, pos) => pos).sort((a, b) => byName(titles[a]!, titles[b]!));
      const ranks = new Uint32Array(titles.length);
      for (const [index, pos] of order.entries()) {
        const previous = order[index - 1];
        ranks[pos] = previous !== undefined && byName(titles[previous]!, titles[pos]!) === 0 ? ranks[previous]! : index;
      }
      const lowerTitles = titles.map((title) => searchableText(title));
      writeFacetOrder(db, lowerTitles, held);
      const insertProduct = db.prepare(
        'INSERT INTO products (pos, id, price, category, name_rank, lower_title, rate) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const pos of titles.keys()) {
        insertProduct.run(pos, held.ids[pos]!, held.prices[pos]!, held.categories[pos]!, ranks[pos]!, lowerTitles[pos]!, held.rates[pos]!);
      }
      const insertCategory = db.prepare('INSERT INTO categories (number, name, size) VALUES (?, ?, ?)');
      for (const [name, { number, size }] of categories) insertCategory.run(number, name, size);
      db.exec(INDEXES);
      db.exec('COMMIT');
      db.close();
      return {
        size: titles.length,
        categories: [...categories.keys()],
        categorySizes: [...categories.values()].map(({ size }) => size),
        titlesHoldNul: titles.some((title) => title.includes('\0')),
      };
    },

    abandon() {
      if (db.isOpen) db.close();
    },
  };
}
