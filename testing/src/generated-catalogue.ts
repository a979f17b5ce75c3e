import type { Product } from '@catalogue/shared/product';
import { seededRandom } from './seeded-random.js';

const CATEGORIES = ["men's clothing", "women's clothing", 'jewelery', 'electronics'];
const SYLLABLES = (
  'ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo ga ge go la le li lo lu ma me mi mo mu na ne ni no nu ' +
  'pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo wa we za ze ton ler ing ent ous ard est'
).split(' ');

/**
 * Words made of random syllables: a small real vocabulary would compress far better than product copy does,
 * and compressed size is part of what the API bench measures.
 */
function phrase(next: () => number, length: number): string {
  const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)]!;
  let text = '';
  while (text.length < length) {
    const syllables = 1 + Math.floor(next() * 3);
    text += `${text ? ' ' : ''}${Array.from({ length: syllables }, () => pick(SYLLABLES)).join('')}`;
  }
  return text;
}

const capitaliseWords = (text: string) => text.replace(/\b\w/g, (letter) => letter.toUpperCase());
const capitaliseFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A catalogue of `count` products shaped and sized like the real Fake Store API's (titles of about 60
 * characters, descriptions of about 300, four categories, prices with cents, ratings), for catalogues far
 * larger than the fixtures: the bench's 1,000 and 50,000 products, and the suites' 50,000 (largeCatalogue). The
 * same `count` and `seed` always give the same catalogue, so every run and every machine measures the same bytes;
 * the seed defaults to `count`, which is what the figures in docs/performance.md were measured with.
 *
 * Titles end with the product's id, so every title is distinct. `image` is a path (`/images/{id}.png`), which
 * the upstream double serves as an absolute URL on its own address, as the real API does.
 */
export function generateCatalogue(count: number, seed = count): Product[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    title: `${capitaliseWords(phrase(next, 55))} ${index + 1}`,
    price: Math.round((5 + next() * 995) * 100) / 100,
    description: `${capitaliseFirst(phrase(next, 295))}.`,
    category: CATEGORIES[index % CATEGORIES.length]!,
    image: `/images/${index + 1}.png`,
    rating: { rate: Math.round((1 + next() * 4) * 10) / 10, count: Math.floor(next() * 1000) },
  }));
}

/** The size of the large catalogue the test suites run against (server, browser) and the bench measures. */
export const LARGE_CATALOGUE_SIZE = 50_000;

let large: Product[] | undefined;

/** The LARGE_CATALOGUE_SIZE-product catalogue, generated once per process (a second or so on a busy machine). */
export function largeCatalogue(): Product[] {
  large ??= generateCatalogue(LARGE_CATALOGUE_SIZE);
  return large;
}
