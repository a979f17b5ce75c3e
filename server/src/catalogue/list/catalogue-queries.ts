import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { type FacetsQuery, hasFilters, MIN_RATINGS, type ProductFacets, type ProductsFilters } from '@catalogue/shared/product-filters';
import type { ProductsQuery } from '@catalogue/shared/product-paging';
import { searchNeedle } from '@catalogue/shared/sort';
import type { CatalogueShape } from './catalogue-database.js';

/**
 * What the Fake Store's list asks (`/api/products?limit&sort`, `/api/products/category/{name}`): a category's products
 * or all, by id if asked, the first `limit`. The one other type for what the list shows beside ProductsQuery
 * (shared/src/product-paging.ts), which is the page's and the search's: this one orders by id and counts, that one
 * searches, sorts and pages, and each reads its own URL. "Every category" is `''` in both.
 */
export interface ListSelection {
  /** A category's exact name; '' for every category. */
  category: string;
  /** By id, ascending or descending; null: the list's own order. */
  sort: 'asc' | 'desc' | null;
  /** null: every product. */
  limit: number | null;
}

/** The questions asked of a filled catalogue file, each put as one or two indexed queries; JSON as it is stored. */
export interface CatalogueQueries {
  /** The public JSON of the products `query` shows, `offset` and `limit` of them, in its order; and how many it shows. */
  page(query: Omit<ProductsQuery, 'page'>, offset: number, limit: number): { items: string[]; total: number };
  /** The public JSON of the first `limit` products whose titles hold `search`, in the catalogue's order: the bar's suggestions. */
  suggested(search: string, limit: number): string[];
  /** The counts beside a search's page (shared/src/product-filters.ts, productFacets), from one query, kept per search and filters. */
  facets(query: FacetsQuery): ProductFacets;
  /** The public JSON of the products a Fake Store selection selects, in its order. */
  listed(selection: ListSelection): string[];
  /** The ids of `limit` products from the `offset`th, in catalogue order (a sitemap file's). */
  ids: (offset: number, limit: number) => number[];
  /** Every product's JSON with the source's own image location: the copy replicas share (docs/scaling.md). */
  sourceJson(): Generator<string>;
  /** Whether the file answers a question as it should (readiness): its products counted, as many as it was filled with. */
  answers(): boolean;
  close(): void;
}

/**
 * Each sort of the products page as SQL; `pos` last, so ties keep the catalogue's order (shared/src/sort.ts). Two
 * ways to run each: `walk` follows the order's index and stops once the page is full, which is quick when matches
 * are dense; `sort` (the unary `+` keeps SQLite off the order's index) gathers the matches first, through the
 * trigram index or the category's, and sorts them, which is quick when they are few.
 */
const ORDER_BY = {
  none: { walk: 'pos', sort: '+pos' },
  priceLowHigh: { walk: 'price, pos', sort: '+price, pos' },
  priceHighLow: { walk: 'price DESC, pos', sort: '+price DESC, pos' },
  nameAZ: { walk: 'name_rank, pos', sort: '+name_rank, pos' },
} as const satisfies Record<ProductsQuery['sort'], { walk: string; sort: string }>;

/**
 * How many rows a walk may expect to read before `sort` is chosen instead: a walk reads about (offset + limit) ×
 * size / total rows to fill a page; sorting the matches costs about their count, read through an index.
 */
const WALK_MAX_ROWS = 2_000;

const ID_ORDER_BY = { asc: 'id, pos', desc: 'id DESC, pos' } as const;

/**
 * The counts kept per search and filters: they change with neither the page nor the sort, and they are the one part
 * of a search's answer that reads every match (the page's total is summed from them).
 */
const FACETS_KEPT = 512;

/** What the counts' query answers for one category: its own count, each least rating's, its price range. */
interface CategoryFacets {
  category: number;
  /** Under the price and the rating filters: the category's count. */
  count: number;
  /** Under the price filter, at each of MIN_RATINGS: the ratings' counts. */
  ratings: number[];
  /** Under the rating filter: the price range; null when none is left. */
  low: number | null;
  high: number | null;
}

/** The price and rating filters as SQL conditions ('1' when not set), with their parameters. */
function filterConditions({ minPrice, maxPrice, minRating }: ProductsFilters): {
  price: { sql: string; params: SQLInputValue[] };
  rating: { sql: string; params: SQLInputValue[] };
} {
  const priceClauses: string[] = [];
  const priceParams: SQLInputValue[] = [];
  if (minPrice !== undefined) {
    priceClauses.push('price >= ?');
    priceParams.push(minPrice);
  }
  if (maxPrice !== undefined) {
    priceClauses.push('price <= ?');
    priceParams.push(maxPrice);
  }
  return {
    price: { sql: priceClauses.length === 0 ? '1' : `(${priceClauses.join(' AND ')})`, params: priceParams },
    rating: minRating === undefined ? { sql: '1', params: [] } : { sql: 'rate >= ?', params: [minRating] },
  };
}

/** A needle this long or longer is looked up in the trigram index; a shorter one has no trigram, and is scanned for. */
const TRIGRAM = 3;

/**
 * The trigram index's question for a needle: every trigram of it, each a quoted string (FTS5's syntax has no
 * other escape), all required. The index keeps no positions (detail = none: a third of the size, half the fill
 * time), so this finds titles holding all of them anywhere; a needle of exactly one trigram is then matched
 * exactly, and a longer one is checked with `instr` on those few.
 */
function trigramsOf(characters: readonly string[]): string {
  const trigrams = new Set<string>();
  for (let at = 0; at + TRIGRAM <= characters.length; at++) {
    const trigram = characters.slice(at, at + TRIGRAM).join('');
    // FTS5 reads its query as C text, which ends at a NUL: such a trigram cannot be asked, so `instr` checks it.
    if (!trigram.includes('\0')) trigrams.add(trigram);
  }
  return [...trigrams].map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' ');
}

/** Whether a needle is looked up in the trigram index: long enough to have a trigram, and one FTS5 can read. */
const hasTrigrams = (characters: readonly string[]): boolean => trigramsOf(characters) !== '';

/** Whether a needle is exactly one trigram the index can be asked for. */
const isOneTrigram = (characters: readonly string[]): boolean => characters.length === TRIGRAM && hasTrigrams(characters);

/** A WHERE clause and its parameters; `none` when the selection can select nothing (an unknown category). */
type Filter = { where: string; params: SQLInputValue[] } | 'none';

/** Opens a finished catalogue file read-only. */
export function catalogueQueries(file: string, shape: CatalogueShape): CatalogueQueries {
  const db = new DatabaseSync(file, { readOnly: true });
  db.exec('PRAGMA cache_size = -8000; PRAGMA mmap_size = 0;');
  const statements = new Map<string, StatementSync>();
  const statement = (sql: string): StatementSync => {
    let prepared = statements.get(sql);
    if (prepared === undefined) statements.set(sql, (prepared = db.prepare(sql)));
    return prepared;
  };
  /** Whether the trigram index alone decides a needle: one trigram, in titles it indexed as they are (no NUL). */
  const indexDecides = (characters: readonly string[]): boolean => !shape.titlesHoldNul && isOneTrigram(characters);
  const facetRows = new Map<string, CategoryFacets[]>();

  /**
   * `trigrams`: whether the needle is looked up in the trigram index (to gather few matches, or count them) or only
   * checked on each row read (a walk, which reads few rows when matches are dense).
   */
  function filterOf(category: string, needle: string, trigrams = true, filters: ProductsFilters = {}): Filter {
    const clauses: string[] = [];
    const params: SQLInputValue[] = [];
    const { price, rating } = filterConditions(filters);
    for (const condition of [price, rating]) {
      if (condition.sql === '1') continue;
      clauses.push(condition.sql);
      params.push(...condition.params);
    }
    if (category !== '') {
      const number = shape.categories.indexOf(category);
      if (number === -1) return 'none';
      clauses.push('category = ?');
      params.push(number);
    }
    if (needle !== '') {
      const characters = [...needle];
      const looksUp = trigrams && hasTrigrams(characters);
      if (looksUp) {
        clauses.push('pos IN (SELECT rowid FROM title_trigrams WHERE title_trigrams MATCH ?)');
        params.push(trigramsOf(characters));
      }
      if (!looksUp || !indexDecides(characters)) {
        clauses.push('instr(lower_title, ?) > 0');
        params.push(needle);
      }
    }
    return { where: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, params };
  }

  /** The public JSON of the products `filter` selects, in `orderBy`'s order, `limit` of them from the `offset`th: one query. */
  function jsonOf(filter: Exclude<Filter, 'none'>, orderBy: string, limit: number, offset = 0): string[] {
    const sql = `SELECT json FROM products JOIN product_json USING (pos) ${filter.where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`;
    return statement(sql)
      .all(...filter.params, limit, offset)
      .map((row) => (row as { json: string }).json);
  }

  /**
   * The counts' one query: the products the search finds, grouped by category, each group counted under the
   * filters, under the price filter at each least rating, and its price range under the rating filter. Which
   * category is chosen only picks groups, so the rows are kept per search and filters, for every category.
   */
  function facetRowsOf(needle: string, filters: ProductsFilters): CategoryFacets[] {
    const key = JSON.stringify([needle, filters.minPrice, filters.maxPrice, filters.minRating]);
    let rows = facetRows.get(key);
    if (rows === undefined) {
      // Every category's: never 'none'.
      const search = filterOf('', needle);
      if (search === 'none') return [];
      const { price, rating } = filterConditions(filters);
      const sql = `SELECT category,
          sum(${price.sql} AND ${rating.sql}) AS count,
          ${MIN_RATINGS.map((min) => `sum(${price.sql} AND rate >= ${min}) AS rated_${min}`).join(', ')},
          min(CASE WHEN ${rating.sql} THEN price END) AS low,
          max(CASE WHEN ${rating.sql} THEN price END) AS high
        FROM products ${search.where} GROUP BY category`;
      const params = [
        ...price.params,
        ...rating.params,
        ...MIN_RATINGS.flatMap(() => price.params),
        ...rating.params,
        ...rating.params,
        ...search.params,
      ];
      rows = statement(sql)
        .all(...params)
        .map((row) => {
          const found = row as Record<string, number | null>;
          return {
            category: found.category!,
            count: found.count!,
            ratings: MIN_RATINGS.map((min) => found[`rated_${min}`]!),
            low: found.low ?? null,
            high: found.high ?? null,
          };
        });
      if (facetRows.size >= FACETS_KEPT) facetRows.delete(facetRows.keys().next().value!);
      facetRows.set(key, rows);
    }
    return rows;
  }

  /**
   * How many products a search, a category and the filters select: the whole list's or a category's size without a
   * search or filter, else the sum of the counts' rows for the category, so a search's answer reads its matches once.
   */
  function totalOf(needle: string, category: string, filters: ProductsFilters): number {
    const number = category === '' ? -1 : shape.categories.indexOf(category);
    if (needle === '' && !hasFilters(filters)) return number === -1 ? shape.size : shape.categorySizes[number]!;
    return facetRowsOf(needle, filters).reduce((sum, row) => (number === -1 || row.category === number ? sum + row.count : sum), 0);
  }

  return {
    facets({ search, category, ...filters }) {
      const rows = facetRowsOf(searchNeedle(search), filters);
      const counts = new Array<number>(shape.categories.length).fill(0);
      for (const row of rows) counts[row.category] = row.count;
      const chosen = category === '' ? rows : rows.filter((row) => shape.categories[row.category] === category);
      const lows = chosen.flatMap(({ low }) => (low === null ? [] : [low]));
      const highs = chosen.flatMap(({ high }) => (high === null ? [] : [high]));
      return {
        categories: shape.categories.map((name, number) => ({ name, count: counts[number]! })),
        ratings: MIN_RATINGS.map((min, index) => ({ min, count: chosen.reduce((sum, row) => sum + row.ratings[index]!, 0) })),
        price: lows.length === 0 ? null : { min: Math.min(...lows), max: Math.max(...highs) },
      };
    },

    suggested(search, limit) {
      const needle = searchNeedle(search);
      if (needle === '') return [];
      // No count: the catalogue's order is walked until `limit` titles match (or, for a needle of three characters
      // or more, the trigram index's matches are taken in that order).
      const filter = filterOf('', needle);
      return filter === 'none' ? [] : jsonOf(filter, 'pos', limit);
    },

    page({ search, category, sort, ...filters }, offset, limit) {
      const needle = searchNeedle(search);
      const filter = filterOf(category, needle, true, filters);
      if (filter === 'none') return { items: [], total: 0 };
      const total = totalOf(needle, category, filters);
      if (offset >= total) return { items: [], total };
      const walk = ((offset + limit) * shape.size) / total <= WALK_MAX_ROWS;
      const pageFilter = walk ? filterOf(category, needle, false, filters) : filter;
      if (pageFilter === 'none') return { items: [], total };
      return { items: jsonOf(pageFilter, ORDER_BY[sort][walk ? 'walk' : 'sort'], limit, offset), total };
    },

    listed({ category, sort, limit }) {
      const filter = filterOf(category, '');
      if (filter === 'none') return [];
      // SQLite reads a negative LIMIT as none.
      return jsonOf(filter, sort === null ? 'pos' : ID_ORDER_BY[sort], limit ?? -1);
    },

    ids: (offset, limit) =>
      statement('SELECT id FROM products WHERE pos >= ? ORDER BY pos LIMIT ?')
        .all(offset, limit)
        .map((row) => (row as { id: number }).id),

    *sourceJson() {
      for (const row of statement('SELECT pos, json, source_image FROM product_json ORDER BY pos').iterate()) {
        const { json, source_image: image } = row as { json: string; source_image: string };
        // The public JSON names this server's image route; the copy keeps the source's own location, in its place.
        yield json.replace(/"image":"[^"]*"/, () => `"image":${JSON.stringify(image)}`);
      }
    },

    answers() {
      try {
        return statement('SELECT count(*) AS size FROM products').get()?.size === shape.size;
      } catch {
        // A file that cannot be read (the disk, the file changed under it): it does not answer, and readiness says so.
        return false;
      }
    },

    close() {
      if (db.isOpen) db.close();
    },
  };
}

/**
 * The whole list's public JSON in id order, from a finished catalogue file, row after row with one query (a fill
 * writes it into a body file: list-fill.ts).
 */
export function* wholeListInIdOrder(file: string, sort: 'asc' | 'desc'): Generator<string> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare(`SELECT json FROM products JOIN product_json USING (pos) ORDER BY ${ID_ORDER_BY[sort]}`).iterate();
    for (const row of rows) yield (row as { json: string }).json;
  } finally {
    db.close();
  }
}
