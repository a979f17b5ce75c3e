import { DatabaseSync, type SQLInputValue, type SQLOutputValue, type StatementSync } from 'node:sqlite';
import { type FacetsQuery, hasFilters, MIN_RATINGS, type ProductFacets, type ProductsFilters } from '@catalogue/shared/product-filters';
import type { ProductsQuery } from '@catalogue/shared/product-paging';
import { searchNeedle } from '@catalogue/shared/sort';
import { type CatalogueShape, ratingStep } from './catalogue-database.js';

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
  /** Whether the file answers as it should (readiness): as many products counted as it was filled with, the counts' columns read. */
  answers(): boolean;
  close(): void;
}

/**
 * Each sort of the products page as SQL; `pos` last, so ties keep the catalogue's order (shared/src/sort.ts). Two
 * ways to run each: `walk` follows the order's index and stops once the page is full, which is quick when matches
 * are dense; `sort` (the unary `+` keeps SQLite off the order's index) gathers the matches first, from the needle's
 * matches or through the category's index, and sorts them, which is quick when they are few.
 */
export const ORDER_BY = {
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

/** How many products, from the first, the suggestions walk before gathering a needle's matches through the trigram index. */
const SUGGESTIONS_WALKED = 2_000;

const ID_ORDER_BY = { asc: 'id, pos', desc: 'id DESC, pos' } as const;

/**
 * The counts kept per search and filters: they change with neither the page nor the sort, and they are the one part
 * of a search's answer that reads every match (the page's total is summed from them).
 */
const FACETS_KEPT = 512;

/** How many needles' matches are held (4 bytes a match): the last few questions', for their page, counts and suggestions. */
const MATCHES_KEPT = 8;

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

/** A (category, rating step)'s range in the counts' order: `size` products from `first`, by price (catalogue-database.ts). */
type FacetGroup = { category: number; step: number; first: number; size: number };

/** What one group's search found: how many under the price filter; its first and last match at any price, or null. */
type GroupCounts = { inPrice: number; first: number | null; last: number | null };

/**
 * The price and rating filters as SQL conditions, with their parameters. `walk`: the order a walk follows, or null. A
 * walk's conditions are behind a unary `+`, so SQLite cannot pick a price index over the order's index it follows
 * (and then sort every match); in a price order, the price range is a range of that same index, sought to, not
 * found by reading every product priced below it first.
 */
export function filterConditions(
  { minPrice, maxPrice, minRating }: ProductsFilters,
  walk: ProductsQuery['sort'] | null,
): { sql: string[]; params: SQLInputValue[] } {
  const byPrice = walk === 'priceLowHigh' || walk === 'priceHighLow';
  const conditions = [
    ['price >= ?', minPrice, byPrice],
    ['price <= ?', maxPrice, byPrice],
    ['rate >= ?', minRating, false],
  ] as const;
  const set = conditions.filter(([, value]) => value !== undefined);
  return {
    sql: set.map(([condition, , sought]) => (walk !== null && !sought ? `+${condition}` : condition)),
    params: set.map(([, value]) => value!),
  };
}

/** The first of the places [from, to) at which `before` no longer holds (it holds for those before it, and no other). */
function firstNotBefore(from: number, to: number, before: (at: number) => boolean): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first of `matches` (ascending) at `fpos` or after; `matches.length` if none. */
const firstAtOrAfter = (matches: Uint32Array, fpos: number): number => firstNotBefore(0, matches.length, (at) => matches[at]! < fpos);

/** `kept`'s value for `key`, made and kept when missing; past `most`, the oldest is dropped. */
function keptOrMade<V>(kept: Map<string, V>, most: number, key: string, make: () => V): V {
  let value = kept.get(key);
  if (value === undefined) {
    value = make();
    if (kept.size >= most) kept.delete(kept.keys().next().value!);
    kept.set(key, value);
  }
  return value;
}

/** A needle this long or longer is looked up in the trigram index; a shorter one has no trigram, and is scanned for. */
const TRIGRAM = 3;

/**
 * The trigram index's question for a needle holding a NUL (which FTS5, reading its query as C text, cannot be asked):
 * every other trigram of it, each a quoted string (FTS5's syntax has no other escape), all required, anywhere; the
 * titles found are then checked with `instr`.
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

/**
 * The trigram index's question for a needle it can be asked whole: the needle as one quoted phrase, which the
 * trigram tokenizer reads as its trigrams at consecutive positions, that is, the titles holding the needle.
 */
const phraseOf = (needle: string): string => `"${needle.replaceAll('"', '""')}"`;

/** matchesOf's three ways to find a needle's matches, each answering their `fpos` ascending as one JSON array. */
const MATCHES_SQL = {
  phrase: 'SELECT json_group_array(rowid) AS fpos FROM (SELECT rowid FROM title_trigrams WHERE title_trigrams MATCH ? ORDER BY rowid)',
  checked: `SELECT json_group_array(fpos) AS fpos FROM (SELECT fpos FROM title_trigrams JOIN facet_order ON fpos = title_trigrams.rowid
    WHERE title_trigrams MATCH ? AND instr(facet_order.lower_title, ?) > 0 ORDER BY title_trigrams.rowid)`,
  scanned: 'SELECT json_group_array(fpos) AS fpos FROM (SELECT fpos FROM facet_order WHERE instr(lower_title, ?) > 0 ORDER BY fpos)',
};

/**
 * A BLOB's bytes, `byteLength` of them, in a buffer of their own, aligned for a typed array over them. `ArrayBuffer.isView`,
 * not `instanceof Uint8Array`, which fails for another realm's array (a test's DOM has globals of its own).
 */
function bytesOf(blob: SQLOutputValue | undefined, byteLength: number): ArrayBufferLike {
  if (!ArrayBuffer.isView(blob) || blob.byteLength !== byteLength)
    throw new Error("The catalogue file holds no counts' columns of its size");
  return blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength);
}

/** A category's number in the catalogue; null for every category (''); undefined for one it does not hold (selects nothing). */
export function categoryNumberOf({ categories }: CatalogueShape, category: string): number | null | undefined {
  const number = categories.indexOf(category);
  return category === '' ? null : number === -1 ? undefined : number;
}

/** A WHERE clause and its parameters. */
type Filter = { where: string; params: SQLInputValue[] };

/** The least rating step the filters leave (catalogue-database.ts, ratingStep): 0 without a rating filter. */
const minStepOf = ({ minRating }: ProductsFilters): number => (minRating === undefined ? 0 : ratingStep(minRating));

/** A page's places: the products `where` selects, in `orderBy`'s order; its parameters, then the limit and the offset. */
export const pageSql = (where: string, orderBy: string): string => `SELECT pos FROM products ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`;

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
  /** Whether the trigram index alone decides a needle: a phrase of trigrams, in titles it indexed as they are (no NUL). */
  const indexDecides = (characters: readonly string[]): boolean =>
    !shape.titlesHoldNul && characters.length >= TRIGRAM && !characters.includes('\0');
  const facetRows = new Map<string, CategoryFacets[]>();
  // The counts' order (catalogue-database.ts): its groups, and every price and `pos` in it, held (12 bytes a product).
  // Read at the first count or readiness check, not here: opening reads nothing, so a file that cannot be read fails a
  // question (and readiness), never the open, which would leave the connection to the collector.
  let facetOrder: { groups: FacetGroup[]; prices: Float64Array; places: Uint32Array } | undefined;
  const facetOrderOf = () => {
    if (facetOrder !== undefined) return facetOrder;
    const columns = statement('SELECT prices, places FROM facet_columns').get();
    return (facetOrder = {
      groups: statement('SELECT category, step, first, size FROM facet_groups ORDER BY first')
        .all()
        .map((row) => ({ category: Number(row.category), step: Number(row.step), first: Number(row.first), size: Number(row.size) })),
      prices: new Float64Array(bytesOf(columns?.prices, 8 * shape.size)),
      places: new Uint32Array(bytesOf(columns?.places, 4 * shape.size)),
    });
  };

  /** A group's part of the counts' order under the price filter: [from, to), found in `prices`. */
  function inPriceOf({ first, size }: FacetGroup, { minPrice, maxPrice }: ProductsFilters): { from: number; to: number } {
    const end = first + size;
    return {
      from: minPrice === undefined ? first : lowerBound(minPrice, first, end, false),
      to: maxPrice === undefined ? end : lowerBound(maxPrice, first, end, true),
    };
  }

  // The last needles' matches (matchesOf): a page, its counts and the suggestions read one's again.
  const matchesKept = new Map<string, Uint32Array>();

  /**
   * The `fpos` of every title holding a needle, ascending, from one query answering one JSON array (a row a match
   * costs several times as much to hand over): the index's phrase; the titles holding every trigram it can be asked
   * for, checked with `instr` (a NUL in the needle or in a title); or, for a needle with no trigram, every title
   * checked in the counts' order.
   */
  const matchesOf = (needle: string): Uint32Array =>
    keptOrMade(matchesKept, MATCHES_KEPT, needle, () => {
      const characters = [...needle];
      const [sql, ...params] = indexDecides(characters)
        ? [MATCHES_SQL.phrase, phraseOf(needle)]
        : hasTrigrams(characters)
          ? [MATCHES_SQL.checked, trigramsOf(characters), needle]
          : [MATCHES_SQL.scanned, needle];
      const fpos: unknown = JSON.parse(String(statement(sql).get(...params)!.fpos));
      if (!Array.isArray(fpos)) throw new Error('The catalogue file answered no list of matches');
      return Uint32Array.from(fpos);
    });

  /**
   * The places in the catalogue (`pos`) of the titles holding a needle, within the ranges of the counts' order the
   * category (null: every one) and the filters leave: picked by binary search, each turned into its `pos` as held.
   */
  function matchesInRanges(needle: string, number: number | null, filters: ProductsFilters): number[] {
    const matches = matchesOf(needle);
    const { groups, places } = facetOrderOf();
    const minStep = minStepOf(filters);
    const pos: number[] = [];
    for (const group of groups) {
      if ((number !== null && group.category !== number) || group.step < minStep) continue;
      const { from, to } = inPriceOf(group, filters);
      for (let at = firstAtOrAfter(matches, from); at < matches.length && matches[at]! < to; at++) pos.push(places[matches[at]!]!);
    }
    return pos;
  }

  /**
   * The category (null: every one), the filters and the needle as a WHERE clause, each row checked as it is read.
   * `walk`: the order whose index is read (see filterConditions), or null: the filters may pick an index of their own.
   */
  function filterOf(number: number | null, needle: string, walk: ProductsQuery['sort'] | null, filters: ProductsFilters = {}): Filter {
    const { sql: clauses, params } = filterConditions(filters, walk);
    if (number !== null) {
      clauses.push('category = ?');
      params.push(number);
    }
    if (needle !== '') {
      clauses.push('instr(lower_title, ?) > 0');
      params.push(needle);
    }
    return { where: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, params };
  }

  /**
   * The same for a page (a few dozen products): the places first, then each one's JSON by its place, so a sort
   * over many matches sorts their keys and places, never their JSON.
   */
  function pageJsonOf(filter: Filter, orderBy: string, limit: number, offset = 0, where = ''): string[] {
    return statement(pageSql(`${filter.where}${where}`, orderBy))
      .all(...filter.params, limit, offset)
      .map((row) => jsonAt(Number(row.pos)));
  }

  /** The public JSON of the product at `pos`. */
  const jsonAt = (pos: number): string => String(statement('SELECT json FROM product_json WHERE pos = ?').get(pos)!.json);

  /**
   * The counts, per search and filters, for every category (which category is chosen only picks rows, so they are
   * kept for all): each (category, rating step) is one range of the counts' order, sorted by price inside it
   * (catalogue-database.ts), so the price filter is a narrower range found in `prices`, and a group's lowest and
   * highest price are its first and last match's. Without a search that is all arithmetic; with one, the needle's
   * matches are found once (matchesOf), and each range's are counted among them by binary search.
   */
  function facetRowsOf(needle: string, filters: ProductsFilters): CategoryFacets[] {
    const key = JSON.stringify([needle, filters.minPrice, filters.maxPrice, filters.minRating]);
    return keptOrMade(facetRows, FACETS_KEPT, key, () => categoryFacetsOf(groupCountsOf(needle, filters), filters));
  }

  /** Each group's matches under the price filter, and its first and last match (any price) in the counts' order. */
  function groupCountsOf(needle: string, filters: ProductsFilters): GroupCounts[] {
    const minStep = minStepOf(filters);
    const matches = needle === '' ? null : matchesOf(needle);
    return facetOrderOf().groups.map((group) => {
      const { first, size, step } = group;
      const end = first + size;
      const { from, to } = inPriceOf(group, filters);
      if (matches === null) return { inPrice: Math.max(0, to - from), first, last: end - 1 };
      const [start, stop] = [firstAtOrAfter(matches, first), firstAtOrAfter(matches, end)];
      // The first and last match only give a price range under the rating filter: not asked of a group below it.
      const ends = step >= minStep && start < stop;
      return {
        inPrice: from < to ? firstAtOrAfter(matches, to) - firstAtOrAfter(matches, from) : 0,
        first: ends ? matches[start]! : null,
        last: ends ? matches[stop - 1]! : null,
      };
    });
  }

  /** The first place in [from, to) of the counts' order priced at `price` or above (`above`: above it). */
  function lowerBound(price: number, from: number, to: number, above: boolean): number {
    const { prices } = facetOrderOf();
    return firstNotBefore(from, to, (at) => (above ? prices[at]! <= price : prices[at]! < price));
  }

  /** The groups' counts summed per category as the counts' rule reads them (shared/src/product-filters.ts, productFacets). */
  function categoryFacetsOf(counts: readonly GroupCounts[], filters: ProductsFilters): CategoryFacets[] {
    const minStep = minStepOf(filters);
    const steps = MIN_RATINGS.map(ratingStep);
    const { groups, prices } = facetOrderOf();
    const rows = shape.categories.map((_, category): CategoryFacets => ({
      category,
      count: 0,
      ratings: MIN_RATINGS.map(() => 0),
      low: null,
      high: null,
    }));
    for (const [index, { category, step }] of groups.entries()) {
      const { inPrice, first, last } = counts[index]!;
      const row = rows[category]!;
      if (step >= minStep) {
        row.count += inPrice;
        if (first !== null && last !== null) {
          row.low = row.low === null ? prices[first]! : Math.min(row.low, prices[first]!);
          row.high = row.high === null ? prices[last]! : Math.max(row.high, prices[last]!);
        }
      }
      for (const [at, least] of steps.entries()) if (step >= least) row.ratings[at]! += inPrice;
    }
    return rows;
  }

  /**
   * How many products a search, a category (null: every one) and the filters select: the list's or the category's size
   * without a search or filter, else its counts' rows summed, so a search's answer reads its matches once.
   */
  function totalOf(needle: string, number: number | null, filters: ProductsFilters): number {
    if (needle === '' && !hasFilters(filters)) return number === null ? shape.size : shape.categorySizes[number]!;
    return facetRowsOf(needle, filters).reduce((sum, row) => (number === null || row.category === number ? sum + row.count : sum), 0);
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
      // No count: the catalogue's order is walked until `limit` titles match. A needle with trigrams is looked for
      // in the first SUGGESTIONS_WALKED products only: a common one fills the list there; one that does not is rare
      // enough to take the first of its matches (matchesOf), which its search page then reads again.
      const walked = filterOf(null, needle, 'none');
      if (!hasTrigrams([...needle])) return pageJsonOf(walked, 'pos', limit);
      const first = pageJsonOf(walked, 'pos', limit, 0, ` AND pos < ${SUGGESTIONS_WALKED}`);
      if (first.length === limit) return first;
      const { places } = facetOrderOf();
      const rest = Uint32Array.from(matchesOf(needle), (fpos) => places[fpos]!)
        .filter((pos) => pos >= SUGGESTIONS_WALKED)
        .sort()
        .subarray(0, limit - first.length);
      return [...first, ...Array.from(rest, jsonAt)];
    },

    page({ search, category, sort, ...filters }, offset, limit) {
      const needle = searchNeedle(search);
      const number = categoryNumberOf(shape, category);
      if (number === undefined) return { items: [], total: 0 };
      const total = totalOf(needle, number, filters);
      if (offset >= total) return { items: [], total };
      const walk = ((offset + limit) * shape.size) / total <= WALK_MAX_ROWS;
      if (!walk && needle !== '') {
        // Few matches, gathered: only those the category and the filters leave (matchesInRanges), then sorted.
        const where = 'WHERE pos IN (SELECT value FROM json_each(?))';
        const params = [JSON.stringify(matchesInRanges(needle, number, filters))];
        return { items: pageJsonOf({ where, params }, ORDER_BY[sort].sort, limit, offset), total };
      }
      const filter = filterOf(number, needle, walk ? sort : null, filters);
      return { items: pageJsonOf(filter, ORDER_BY[sort][walk ? 'walk' : 'sort'], limit, offset), total };
    },

    listed({ category, sort, limit }) {
      const number = categoryNumberOf(shape, category);
      if (number === undefined) return [];
      const { where, params } = filterOf(number, '', null);
      // One query, the JSON joined in; SQLite reads a negative LIMIT as none.
      const sql = `SELECT json FROM products JOIN product_json USING (pos) ${where} ORDER BY ${sort === null ? 'pos' : ID_ORDER_BY[sort]} LIMIT ?`;
      return statement(sql)
        .all(...params, limit ?? -1)
        .map((row) => String(row.json));
    },

    ids: (offset, limit) =>
      statement('SELECT id FROM products WHERE pos >= ? ORDER BY pos LIMIT ?')
        .all(offset, limit)
        .map((row) => Number(row.id)),

    *sourceJson() {
      for (const row of statement('SELECT pos, json, source_image FROM product_json ORDER BY pos').iterate()) {
        const [json, image] = [String(row.json), String(row.source_image)];
        // The public JSON names this server's image route; the copy keeps the source's own location, in its place.
        yield json.replace(/"image":"[^"]*"/, () => `"image":${JSON.stringify(image)}`);
      }
    },

    answers() {
      try {
        // The counts' columns too: without them every search fails while the products are still counted.
        facetOrderOf();
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
    for (const row of rows) yield String(row.json);
  } finally {
    db.close();
  }
}
