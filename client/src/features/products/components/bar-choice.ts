import type { Product } from '@catalogue/shared/product';
import { productDetailsPath, productsInCategoryPath } from '@catalogue/shared/routes';

/** One choice of the bar search's list: a product (opens its page) or a category (opens the list narrowed to it). */
export type Choice = { kind: 'product'; product: Product } | { kind: 'category'; name: string };

/** Where a choice leads. */
export const pathOf = (choice: Choice) =>
  choice.kind === 'product' ? productDetailsPath(choice.product.id) : productsInCategoryPath(choice.name);
