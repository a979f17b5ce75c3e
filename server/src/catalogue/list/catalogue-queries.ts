import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
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

/** How many products, from the first, the suggestions walk before gathering a needle's matches through the trigram index. */
const SUGGESTIONS_WALKED = 2_000;

const ID_ORDER_BY = { asc: 'id, pos', desc: 'id DESC, pos' } as const;

/**
 * The counts kept per search and filters: they change with neither the page nor the sort, and they are the one part
 * of a search's answer that reads every match (the page's total is summed from them).
 */
const FACETS_KEPT = 512;

/** How many needles' checked matches are held (4 bytes a match): the last few questions', for their page and counts. */
const CHECKED_KEPT = 8;

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
 * The price and rating filters as SQL conditions, with their parameters. `walk`: each column behind a unary `+`, so
 * SQLite cannot pick a price index over the order's index a walk follows (and then sort every match).
 */
function filterConditions({ minPrice, maxPrice, minRating }: ProductsFilters, walk: boolean): { sql: string[]; params: SQLInputValue[] } {
  const conditions = { 'price >= ?': minPrice, 'price <= ?': maxPrice, 'rate >= ?': minRating };
  const set = Object.entries(conditions).filter(([, value]) => value !== undefined);
  return { sql: set.map(([condition]) => (walk ? `+${condition}` : condition)), params: set.map(([, value]) => value!) };
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
  // The counts' order (catalogue-database.ts): its groups, and every price in it, held (8 bytes a product). Read at
  // the first count, not here: opening reads nothing, so a file that cannot be read fails a question (and readiness),
  // never the open, which would leave the connection to the collector.
  let facetOrder: { groups: FacetGroup[]; prices: Float64Array } | undefined;
  const facetOrderOf = () =>
    (facetOrder ??= {
      groups: statement('SELECT category, step, first, size FROM facet_groups ORDER BY first')
        .all()
        .map((row) => ({ category: Number(row.category), step: Number(row.step), first: Number(row.first), size: Number(row.size) })),
      prices: new Float64Array((statement('SELECT prices FROM facet_prices').get()!.prices as Uint8Array).slice().buffer),
    });

  /** A group's part of the counts' order under the price filter: [from, to), found in `prices`. */
  function inPriceOf({ first, size }: FacetGroup, { minPrice, maxPrice }: ProductsFilters): { from: number; to: number } {
    const end = first + size;
    return {
      from: minPrice === undefined ? first : lowerBound(minPrice, first, end, false),
      to: maxPrice === undefined ? end : lowerBound(maxPrice, first, end, true),
    };
  }

  // The last needles' checked matches (checkedMatchesOf): a page and its counts read one's twice.
  const checkedKept = new Map<string, Uint32Array>();

  /**
   * For a needle with trigrams the index does not decide alone: the `fpos` of every title holding it, ascending (the
   * index's rowid order: by `fpos`, SQLite would sort again), its candidates checked with `instr` in one lookup, not
   * one a range, which spares the index's setup in each (most of a rare needle's time).
   */
  const checkedMatchesOf = (needle: string): Uint32Array =>
    keptOrMade(checkedKept, CHECKED_KEPT, needle, () => {
      const rows = statement(
        `SELECT fpos FROM title_trigrams JOIN facet_order ON fpos = title_trigrams.rowid
          WHERE title_trigrams MATCH ? AND instr(facet_order.lower_title, ?) > 0 ORDER BY title_trigrams.rowid`,
      ).all(trigramsOf([...needle]), needle);
      return Uint32Array.from(rows, (row) => Number(row.fpos));
    });

  /**
   * The places in the counts' order (`fpos`) of the titles holding a needle that has trigrams, within the ranges the
   * category and the filters leave, ascending: a common trigram's few matches under narrow filters are looked up in
   * the index there, not among all of its matches; a needle checked title by title picks them from its matches.
   */
  function matchesInRanges(needle: string, category: string, filters: ProductsFilters): number[] {
    const characters = [...needle];
    const checked = indexDecides(characters) ? null : checkedMatchesOf(needle);
    const number = category === '' ? -1 : shape.categories.indexOf(category);
    const minStep = filters.minRating === undefined ? 0 : ratingStep(filters.minRating);
    const lookup = statement('SELECT rowid AS fpos FROM title_trigrams WHERE title_trigrams MATCH ? AND rowid >= ? AND rowid < ?');
    const fpos: number[] = [];
    for (const group of facetOrderOf().groups) {
      if ((number !== -1 && group.category !== number) || group.step < minStep) continue;
      const { from, to } = inPriceOf(group, filters);
      if (checked !== null) {
        for (let at = firstAtOrAfter(checked, from); at < checked.length && checked[at]! < to; at++) fpos.push(checked[at]!);
      } else if (from < to) {
        // Bound as integers, as the counts' are (groupCountsOf).
        for (const row of lookup.all(trigramsOf(characters), BigInt(from), BigInt(to))) fpos.push(Number(row.fpos));
      }
    }
    return fpos;
  }

  /**
   * `trigrams`: whether the needle is looked up in the trigram index (to gather few matches, or count them) or only
   * checked on each row read (a walk, which reads few rows when matches are dense).
   */
  function filterOf(category: string, needle: string, trigrams = true, filters: ProductsFilters = {}): Filter {
    const characters = [...needle];
    // Gathered through the trigram index, the matches drive: no other condition may pick an index instead.
    const looksUp = needle !== '' && trigrams && hasTrigrams(characters);
    const { sql: clauses, params } = filterConditions(filters, !trigrams || looksUp);
    if (category !== '') {
      const number = shape.categories.indexOf(category);
      if (number === -1) return 'none';
      clauses.push(looksUp ? '+category = ?' : 'category = ?');
      params.push(number);
    }
    if (looksUp) {
      // The index's rowids are the counts' order (catalogue-database.ts): `facet_order` names each one's `pos`, and
      // holds the title too, so a longer needle is checked there, before any product row is read.
      const decides = indexDecides(characters);
      clauses.push(
        `pos IN (SELECT pos FROM facet_order WHERE fpos IN (SELECT rowid FROM title_trigrams WHERE title_trigrams MATCH ?)${
          decides ? '' : ' AND instr(lower_title, ?) > 0'
        })`,
      );
      params.push(trigramsOf(characters), ...(decides ? [] : [needle]));
    } else if (needle !== '') {
      clauses.push('instr(lower_title, ?) > 0');
      params.push(needle);
    }
    return { where: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, params };
  }

  /** The public JSON of the products `filter` selects, in `orderBy`'s order, `limit` of them from the `offset`th: one query. */
  function jsonOf(filter: Exclude<Filter, 'none'>, orderBy: string, limit: number, offset = 0): string[] {
    const sql = `SELECT json FROM products JOIN product_json USING (pos) ${filter.where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`;
    return statement(sql)
      .all(...filter.params, limit, offset)
      .map((row) => String(row.json));
  }

  /**
   * The same for a page (a few dozen products): the places first, then each one's JSON by its place, so a sort
   * over many matches sorts their keys and places, never their JSON.
   */
  function pageJsonOf(filter: Exclude<Filter, 'none'>, orderBy: string, limit: number, offset = 0, where = ''): string[] {
    const sql = `SELECT pos FROM products ${filter.where}${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`;
    const json = statement('SELECT json FROM product_json WHERE pos = ?');
    return statement(sql)
      .all(...filter.params, limit, offset)
      .map((row) => String(json.get(Number(row.pos))!.json));
  }

  /**
   * The counts, per search and filters, for every category (which category is chosen only picks rows, so they are
   * kept for all): each (category, rating step) is one range of the counts' order, sorted by price inside it
   * (catalogue-database.ts), so the price filter is a narrower range found in `prices`, and a group's lowest and
   * highest price are its first and last match's. Without a search that is all arithmetic; with a needle the trigram
   * index alone decides, each range's matches are counted by the index (no row read); otherwise each range's titles
   * are checked, through the index when the needle has trigrams.
   */
  function facetRowsOf(needle: string, filters: ProductsFilters): CategoryFacets[] {
    const key = JSON.stringify([needle, filters.minPrice, filters.maxPrice, filters.minRating]);
    return keptOrMade(facetRows, FACETS_KEPT, key, () => categoryFacetsOf(groupCountsOf(needle, filters), filters));
  }

  /** Each group's matches under the price filter, and its first and last match (any price) in the counts' order. */
  function groupCountsOf(needle: string, filters: ProductsFilters): GroupCounts[] {
    const characters = [...needle];
    const trigrams = hasTrigrams(characters) ? trigramsOf(characters) : null;
    const minStep = filters.minRating === undefined ? 0 : ratingStep(filters.minRating);
    return facetOrderOf().groups.map((group) => {
      const { first, size, step } = group;
      const end = first + size;
      const { from, to } = inPriceOf(group, filters);
      // The first and last match only give a price range under the rating filter: not asked of a group below it.
      const ends = step >= minStep;
      if (needle === '') return { inPrice: Math.max(0, to - from), first, last: end - 1 };
      // The rowid bounds go to the trigram index as integers: bound as a JavaScript number (a double) FTS5 does not
      // seek to them, and reads the needle's whole list for each group.
      if (trigrams !== null && indexDecides(characters)) {
        const match = 'FROM title_trigrams WHERE title_trigrams MATCH ? AND rowid >= ? AND rowid < ?';
        const at = (order: string) => {
          const row = statement(`SELECT rowid AS at ${match} ORDER BY rowid ${order} LIMIT 1`).get(trigrams, BigInt(first), BigInt(end));
          return row === undefined ? null : Number(row.at);
        };
        return {
          inPrice: from < to ? Number(statement(`SELECT count(*) AS n ${match}`).get(trigrams, BigInt(from), BigInt(to))!.n) : 0,
          first: ends ? at('ASC') : null,
          last: ends ? at('DESC') : null,
        };
      }
      if (trigrams !== null) {
        // Checked title by title: every match found once, in one lookup, and each range's counted among them.
        const matches = checkedMatchesOf(needle);
        const [start, stop] = [firstAtOrAfter(matches, first), firstAtOrAfter(matches, end)];
        return {
          inPrice: from < to ? firstAtOrAfter(matches, to) - firstAtOrAfter(matches, from) : 0,
          first: ends && start < stop ? matches[start]! : null,
          last: ends && start < stop ? matches[stop - 1]! : null,
        };
      }
      const found = statement(
        `SELECT sum(fpos >= ? AND fpos < ?) AS n, min(fpos) AS first, max(fpos) AS last FROM facet_order
          WHERE fpos >= ? AND fpos < ? AND instr(lower_title, ?) > 0`,
      ).get(from, to, first, end, needle);
      return {
        inPrice: Number(found?.n ?? 0),
        first: found?.first == null ? null : Number(found.first),
        last: found?.last == null ? null : Number(found.last),
      };
    });
  }

  /** The first place in [from, to) of the counts' order priced at `price` or above (`above`: above it). */
  function lowerBound(price: number, from: number, to: number, above: boolean): number {
    const { prices } = facetOrderOf();
    return firstNotBefore(from, to, (at) => (above ? prices[at]! <= price : prices[at]! < price));
  }

  /** The groups' counts summed per category as the counts' rule reads them (shared/src/product-filters.ts, productFacets). */
  function categoryFacetsOf(counts: readonly GroupCounts[], { minRating }: ProductsFilters): CategoryFacets[] {
    const minStep = minRating === undefined ? 0 : ratingStep(minRating);
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
      // A needle of three characters or more is looked for in the first SUGGESTIONS_WALKED products first: a
      // common one fills the list there; one that does not is rare enough to gather through the trigram index.
      const walked = filterOf('', needle, false);
      if (walked === 'none' || !hasTrigrams([...needle])) return walked === 'none' ? [] : pageJsonOf(walked, 'pos', limit);
      const first = pageJsonOf(walked, 'pos', limit, 0, ` AND pos < ${SUGGESTIONS_WALKED}`);
      if (first.length === limit) return first;
      const gathered = filterOf('', needle);
      if (gathered === 'none') return first;
      return [...first, ...pageJsonOf(gathered, '+pos', limit - first.length, 0, ` AND pos >= ${SUGGESTIONS_WALKED}`)];
    },

    page({ search, category, sort, ...filters }, offset, limit) {
      const needle = searchNeedle(search);
      const filter = filterOf(category, needle, true, filters);
      if (filter === 'none') return { items: [], total: 0 };
      const total = totalOf(needle, category, filters);
      if (offset >= total) return { items: [], total };
      const walk = ((offset + limit) * shape.size) / total <= WALK_MAX_ROWS;
      // A needle too short for the trigram index is checked on every row anyway: read them in order (the unary `+`s of
      // a walk's filter), not one by one through a price index, which is slower from a few thousand rows up.
      const scans = needle !== '' && !hasTrigrams([...needle]);
      if (!walk && !scans && needle !== '') {
        // Few matches, gathered: looked up only where the category and the filters leave them (matchesInRanges).
        const where = 'WHERE pos IN (SELECT pos FROM facet_order WHERE fpos IN (SELECT value FROM json_each(?)))';
        const params = [JSON.stringify(matchesInRanges(needle, category, filters))];
        return { items: pageJsonOf({ where, params }, ORDER_BY[sort].sort, limit, offset), total };
      }
      const pageFilter = walk || scans ? filterOf(category, needle, false, filters) : filter;
      if (pageFilter === 'none') return { items: [], total };
      return { items: pageJsonOf(pageFilter, ORDER_BY[sort][walk ? 'walk' : 'sort'], limit, offset), total };
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
