import type { Product } from '@catalogue/shared/product';
import { COMPARATORS, type ProductOrder } from '@catalogue/shared/sort';
import { toPublicProduct } from './public-product.js';

/**
 * The product list as the server holds it (docs/decisions/catalogue-off-the-request-thread.md): not 50,000 objects
 * but the public list's JSON, one buffer, with where each product's JSON starts in it, and beside it only what
 * searching, sorting and the sitemap read: ids, lower-cased titles, category numbers, the sort orders. Every answer
 * is cut from these (list-questions.ts): a page of products is its products' bytes joined, never objects serialised
 * again. Built once per fill (compactListBuilder), product by product as the thread that fills the list validates
 * them. Typed arrays only (and the few categories' names); a large list's are all in shared memory, so every thread
 * sees the same list without a copy: the thread that keeps it answers from it, and the request thread still can
 * when that thread has stopped (list-threads/list-keeper.ts).
 */
export interface CompactList {
  /** `[` + each public product's JSON, joined by `,` + `]`: the same bytes as JSON.stringify of the public list. */
  json: Uint8Array;
  /** Where product i's JSON starts in `json`; `starts[size]` is the closing bracket's offset + 1. */
  starts: Uint32Array;
  ids: Float64Array;
  /** Each product's category, as a position in `categories`. */
  categoryOf: Uint16Array;
  /** In the catalogue's order of first appearance (shared/src/categories.ts). */
  categories: string[];
  /** Each title lower-cased as the search rule compares it (shared/src/sort.ts), as UTF-8. */
  lowerTitles: TextColumn;
  /** The list's order under each sort and by id (positions), each stable: ties keep the catalogue's order. */
  orders: Record<ProductOrder | 'idAsc' | 'idDesc', Uint32Array>;
  /** The source's own image location of each product (the public JSON names this server's image route). */
  sourceImages: TextColumn;
}

/** One string a product, as UTF-8 one after the other: product i's is `bytes[starts[i]..starts[i + 1])`. */
export interface TextColumn {
  bytes: Uint8Array;
  starts: Uint32Array;
}

/** Where a list's columns live: plain memory (a small list, held by one thread) or memory every thread shares. */
export type ListMemory = 'plain' | 'shared';

/** The typed arrays of one list, all in the same kind of memory. */
function columnsIn(memory: ListMemory) {
  const bytesOf = (length: number) => (memory === 'shared' ? new SharedArrayBuffer(length) : new ArrayBuffer(length));
  return {
    kind: memory,
    bytes: (length: number) => new Uint8Array(bytesOf(length)),
    copy: (bytes: Uint8Array) => {
      const copy = new Uint8Array(bytesOf(bytes.length));
      copy.set(bytes);
      return copy;
    },
    positions: (values: ArrayLike<number>) => copied(new Uint32Array(bytesOf(values.length * 4)), values),
    numbers: (values: ArrayLike<number>) => copied(new Float64Array(bytesOf(values.length * 8)), values),
    smallNumbers: (values: ArrayLike<number>) => copied(new Uint16Array(bytesOf(values.length * 2)), values),
  };
}
type Columns = ReturnType<typeof columnsIn>;

function copied<T extends Uint32Array | Float64Array | Uint16Array>(array: T, values: ArrayLike<number>): T {
  array.set(values);
  return array;
}

function textColumn(strings: readonly string[], columns: Columns): TextColumn {
  const ends = [0];
  for (const text of strings) ends.push(ends.at(-1)! + Buffer.byteLength(text, 'utf8'));
  const starts = columns.positions(ends);
  const bytes = columns.bytes(ends.at(-1)!);
  const out = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const [index, text] of strings.entries()) out.write(text, starts[index]!, 'utf8');
  return { bytes, starts };
}

export function textAt({ bytes, starts }: TextColumn, index: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', starts[index], starts[index + 1]);
}

const ORDERS = Object.keys(COMPARATORS) as ProductOrder[];

/** What the list keeps of a product while it is built, besides its JSON: what the orders, search and images read. */
type Kept = Pick<Product, 'id' | 'title' | 'price' | 'image'>;

/** A compact list made product by product, as a fill validates them: what it holds of each is its JSON and `Kept`. */
export interface CompactListBuilder {
  add(product: Product): void;
  /**
   * The list of the products added, its columns in `memory` (shared for a large list). Once only: the builder then
   * lets go of what it gathered (tens of megabytes of objects at 200,000 products), so a fill can collect it before
   * compressing the list (list-threads/list-fill.ts).
   */
  build(memory?: ListMemory | ((jsonBytes: number) => ListMemory)): CompactList;
}

export function compactListBuilder(): CompactListBuilder {
  let gathering: Gathering | undefined = gathered();
  const spent = () => new Error('this compact list was built already');

  return {
    add(product) {
      if (gathering === undefined) throw spent();
      const { kept, categories, categoryNumbers, categoryOf, json } = gathering;
      const { id, title, price, image, category } = product;
      json.append(JSON.stringify(toPublicProduct(product)));
      kept.push({ id, title, price, image });
      let number = categoryNumbers.get(category);
      if (number === undefined) {
        number = categories.push(category) - 1;
        categoryNumbers.set(category, number);
      }
      categoryOf.push(number);
    },

    build(memory = 'plain') {
      if (gathering === undefined) throw spent();
      const { kept, categories, categoryOf, json } = gathering;
      gathering = undefined;
      const { bytes, ends } = json.close();
      const columns = columnsIn(typeof memory === 'function' ? memory(bytes.length) : memory);
      return {
        json: columns.kind === 'shared' ? bytes : columns.copy(bytes),
        starts: columns.positions(ends),
        ids: columns.numbers(kept.map((product) => product.id)),
        categoryOf: columns.smallNumbers(categoryOf),
        categories,
        lowerTitles: textColumn(
          kept.map((product) => product.title.toLocaleLowerCase()),
          columns,
        ),
        orders: ordersOf(kept, columns),
        sourceImages: textColumn(
          kept.map((product) => product.image),
          columns,
        ),
      };
    },
  };
}

/** What a builder holds until it builds: each product's `Kept`, the categories met, and the list's JSON so far. */
interface Gathering {
  kept: Kept[];
  categories: string[];
  categoryNumbers: Map<string, number>;
  categoryOf: number[];
  json: ReturnType<typeof growingJson>;
}

function gathered(): Gathering {
  return { kept: [], categories: [], categoryNumbers: new Map(), categoryOf: [], json: growingJson() };
}

// Growable SharedArrayBuffers (ES2024, Node 20): declared here, as the projects that compile this file take ES2023's
// library, whose SharedArrayBuffer cannot grow.
declare global {
  interface SharedArrayBuffer {
    grow(newLength: number): void;
    readonly maxByteLength: number;
  }
  interface SharedArrayBufferConstructor {
    new (byteLength: number, options: { maxByteLength: number }): SharedArrayBuffer;
  }
}

/**
 * The list's JSON grown product by product in shared memory that grows in place (a growable SharedArrayBuffer): the
 * bytes a large list keeps are written once, as the products come, and no product's JSON waits on the heap for the
 * buffer to be allocated at its size (at 200,000 products some 100 MB of strings at the fill's peak). Growing commits
 * pages of one reservation as they are written; none is copied. A small list's is copied to plain memory (at most
 * HANDED_OVER_MAX_BYTES).
 */
function growingJson() {
  // Offsets are Uint32 (`starts`): the reservation is the most they can address; only pages written are resident.
  const json = new SharedArrayBuffer(1024, { maxByteLength: 2 ** 32 - 1 });
  let out = Buffer.from(json);
  out[0] = 0x5b; // [
  let length = 1;
  const ends: number[] = [];
  const room = (bytes: number) => {
    if (length + bytes <= json.byteLength) return;
    // Past the reservation, grow throws: a list too large to address, never one cut short.
    json.grow(Math.max(length + bytes, Math.min(json.maxByteLength, Math.ceil(json.byteLength * 1.5))));
    out = Buffer.from(json);
  };
  return {
    /** One product's JSON, then its comma (the last one's turned into the closing bracket). */
    append(text: string): void {
      // At most 3 bytes a UTF-16 unit: room checked without measuring the string first.
      room(text.length * 3 + 1);
      ends.push(length);
      length += out.write(text, length, 'utf8');
      out[length++] = 0x2c; // ,
    },
    close(): { bytes: Uint8Array; ends: number[] } {
      if (ends.length === 0) room(1);
      else length--; // the last comma
      out[length++] = 0x5d; // ]
      ends.push(length);
      return { bytes: new Uint8Array(json, 0, length), ends };
    },
  };
}

/** The list as its products' JSON and indexes, in plain memory (the embedded catalogue, the tests). */
export function buildCompactList(products: readonly Product[]): CompactList {
  const builder = compactListBuilder();
  for (const product of products) builder.add(product);
  return builder.build();
}

function ordersOf(kept: readonly Kept[], columns: Columns): CompactList['orders'] {
  const positions = Array.from(kept, (_, position) => position);
  const sorted = (compare: (a: number, b: number) => number) => columns.positions([...positions].sort(compare));
  const byId = (direction: 1 | -1) => sorted((a, b) => direction * (kept[a]!.id - kept[b]!.id));
  // Array.prototype.sort is stable: ties keep the catalogue's order, as filterAndSortProducts's do.
  const bySort = Object.fromEntries(
    ORDERS.map((order) => [order, sorted((a, b) => COMPARATORS[order](kept[a]!, kept[b]!))] as const),
  ) as Record<ProductOrder, Uint32Array>;
  return { ...bySort, idAsc: byId(1), idDesc: byId(-1) };
}

export function listSize(list: CompactList): number {
  return list.ids.length;
}

/** How many products each category holds, in the order of `categories`. */
export function categorySizes(list: CompactList): number[] {
  const sizes = list.categories.map(() => 0);
  for (const category of list.categoryOf) sizes[category]! += 1;
  return sizes;
}
