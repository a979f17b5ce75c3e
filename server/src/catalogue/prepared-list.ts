import type { Product } from '@catalogue/shared/product';
import type { EncodedBody } from '../http/encoded-body.js';
import { buildListIndex, type ListIndex } from './list-index.js';

/** What a fill's worker made from a list besides its products: its public body and its search index. */
export interface PreparedList {
  body: EncodedBody;
  index: ListIndex;
}

/**
 * The body and index made with a list, by the list itself (the array the source returned): the read-through
 * cache prepares a value's body from the value alone, and a large list's was made on the worker that parsed it
 * (list-fill-pool.ts), where making it again on the event loop would stall it. Weak, so a replaced list takes its
 * own along.
 */
const prepared = new WeakMap<readonly Product[], Partial<PreparedList>>();

export function keepPreparedList(products: readonly Product[], list: PreparedList): void {
  prepared.set(products, list);
}

/** The public body made with this list, if a worker made one. */
export function preparedBodyOf(products: readonly Product[]): EncodedBody | undefined {
  return prepared.get(products)?.body;
}

/**
 * The search index of this list: the worker's, or (a list that came another way: the embedded catalogue, a
 * replica's shared copy) built here once and kept with the list.
 */
export function listIndexOf(products: readonly Product[]): ListIndex {
  const held = prepared.get(products);
  if (held?.index) return held.index;
  const index = buildListIndex(products);
  prepared.set(products, { ...held, index });
  return index;
}
