// The filters' and suggestions' SQL at 200,000 products (docs/performance.md, "Filters and the search in the bar"):
// a catalogue generated and written as a fill writes it, then opened as the server opens a list, and each question
// asked as a request that misses every cache would ask it: a search page with its counts (`page` then `facets`, each
// with a search and filters it has not seen), and the bar's suggestions. Times are the main thread's, per question,
// in this process (no HTTP): what a first ask adds to an answer. A part of `npm run bench`; alone,
// `node scripts/bench/facets-queries.mjs` on the last build. FACETS_BENCH_SIZE chooses the size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { catalogueWriter } from '../../server/dist/catalogue/list/catalogue-database.js';
import { catalogueQueries } from '../../server/dist/catalogue/list/catalogue-queries.js';
import { generateCatalogue } from '../../testing/dist/generated-catalogue.js';
import { seededRandom } from '../../testing/dist/seeded-random.js';
import { envNumber, fmt, percentile, runAlone } from './harness.mjs';

const ROUNDS = 300;
/** Issue 50's targets, p99 of a first ask: a page with its counts, by the text's length, and the bar's suggestions. */
const TARGET_MS = { long: 10, short: 60, suggestions: 5 };

export async function measureFacetQueries({ log, report, size = envNumber('FACETS_BENCH_SIZE', 200_000) }) {
  const folder = mkdtempSync(join(tmpdir(), 'facets-bench-'));
  try {
    const products = generateCatalogue(size);
    const writer = catalogueWriter(join(folder, 'list.sqlite'));
    for (const product of products) writer.add(product);
    const shape = writer.finish();
    const queries = catalogueQueries(join(folder, 'list.sqlite'), shape);
    const random = seededRandom(7);
    const pick = (items) => items[Math.floor(random() * items.length)];

    /**
     * A needle of `length` characters cut from a random title, so every one finds something; cut again until no
     * space ends it, since the search trims its text (shared/src/sort.ts, searchNeedle): ' es' is a search for 'es'.
     */
    const needle = (length) => {
      for (;;) {
        const title = pick(products).title.toLowerCase();
        const at = Math.floor(random() * Math.max(1, title.length - length));
        const text = title.slice(at, at + length);
        if (text.length === length && text.trim() === text) return text;
      }
    };
    /** A random mix of filters, each present about half the time. */
    const filters = () => {
      const low = Math.round(random() * 400);
      return {
        ...(random() < 0.5 && { minPrice: low }),
        ...(random() < 0.5 && { maxPrice: low + Math.round(random() * 500) }),
        ...(random() < 0.5 && { minRating: pick([1, 2, 3, 4]) }),
      };
    };

    /** The main thread's time for `ask(query)` over `rounds` queries from `make()`. */
    const timesOf = (rounds, make, ask) =>
      Array.from({ length: rounds }, () => {
        const query = make();
        const start = performance.now();
        ask(query);
        return performance.now() - start;
      });
    const searchPage = (query) => {
      queries.page(query, 0, 24);
      queries.facets(query);
    };
    const rows = [];
    const lengths = [
      ['3+ characters', [3, 4, 5, 6, 8], TARGET_MS.long],
      ['1–2 characters', [1, 2], TARGET_MS.short],
    ];
    for (const [label, sizes, target] of lengths) {
      const query = () => ({
        search: needle(pick(sizes)),
        category: random() < 0.3 ? pick(shape.categories) : '',
        sort: pick(['none', 'priceLowHigh', 'nameAZ']),
        ...filters(),
      });
      rows.push([`search page + counts, ${label}, filters`, timesOf(ROUNDS, query, searchPage), target]);
    }
    for (const [label, sizes] of lengths) {
      const ask = (search) => queries.suggested(search, 6);
      rows.push([`suggestions, ${label}`, timesOf(ROUNDS, () => needle(pick(sizes)), ask), TARGET_MS.suggestions]);
    }
    const noText = () => ({ search: '', category: '', sort: 'none', ...filters(), minRating: pick([1, 2, 3, 4]) });
    rows.push(['search page + counts, no text, filters', timesOf(50, noText, searchPage), null]);
    queries.close();

    const area = `filters and suggestions, ${fmt(size)} products (SQL, first asks)`;
    for (const [label, times, target] of rows) {
      const p99 = percentile(times, 99);
      const value = `p99 ${fmt(p99, 2)} ms (p50 ${fmt(percentile(times, 50), 2)} ms, ${times.length} asks)`;
      log(`  ${label}: ${value}`);
      report.add(area, label, value, target ? `p99 ≤ ${target} ms` : '', target ? p99 <= target : null);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, measureFacetQueries);
