// A Fake-Store-shaped upstream for the bench: `GET /products`, `GET /products/{id}` and `GET /images/{id}.png`
// on 127.0.0.1, serving generated products. The server's test stub is TypeScript, which Node 20 cannot run
// without a build step, and the bench needs catalogues far larger than the stub's twenty fixtures.
import { createServer } from 'node:http';

const CATEGORIES = ["men's clothing", "women's clothing", 'jewelery', 'electronics'];
const SYLLABLES =
  'ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo ga ge go la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo wa we za ze ton ler ing ent ous ard est'.split(
    ' ',
  );

/** A 1×1 PNG: every product image is this one (images are not what the bench measures). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** mulberry32: a seeded generator, so every run (and every machine) benchmarks the same catalogue. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Words made of random syllables: a small real vocabulary would compress far better than product copy does,
 * and compressed size is part of what the API bench measures.
 */
function text(next, length) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  let phrase = '';
  while (phrase.length < length) {
    const syllables = 1 + Math.floor(next() * 3);
    phrase += `${phrase ? ' ' : ''}${Array.from({ length: syllables }, () => pick(SYLLABLES)).join('')}`;
  }
  return phrase;
}

const capitaliseWords = (phrase) => phrase.replace(/\b\w/g, (letter) => letter.toUpperCase());
const capitaliseFirst = (phrase) => phrase[0].toUpperCase() + phrase.slice(1);

/**
 * Products with the field sizes of the real Fake Store API (titles of ~60 characters, descriptions of ~300).
 * `image` is a path; the upstream serves it as an absolute URL on its own origin, as the real API does.
 */
function generateProducts(count) {
  const next = random(count);
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    title: `${capitaliseWords(text(next, 55))} ${index + 1}`,
    price: Math.round((5 + next() * 995) * 100) / 100,
    description: `${capitaliseFirst(text(next, 295))}.`,
    category: CATEGORIES[index % CATEGORIES.length],
    image: `/images/${index + 1}.png`,
    rating: { rate: Math.round((1 + next() * 4) * 10) / 10, count: Math.floor(next() * 1000) },
  }));
}

/** Starts the upstream on an ephemeral port. Resolves with `{ url, products, close() }`. */
export async function startUpstream(count) {
  const products = generateProducts(count);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://upstream').pathname;
    const withImageUrl = (product) => ({ ...product, image: `${url}${product.image}` });
    if (path === '/products') return send(res, 200, 'application/json', JSON.stringify(products.map(withImageUrl)));
    const productId = /^\/products\/(\d+)$/.exec(path)?.[1];
    if (productId !== undefined) {
      const product = products[Number(productId) - 1];
      return send(res, 200, 'application/json', JSON.stringify(product ? withImageUrl(product) : null));
    }
    if (/^\/images\/\d+\.png$/.test(path)) return send(res, 200, 'image/png', PNG);
    send(res, 404, 'text/plain', 'Not Found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    products,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res, status, contentType, body) {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
