import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Link, useLinkClickHandler, type LinkProps } from 'react-router-dom';
import type { Product } from '@catalogue/shared/product';
import { productDetailsPath } from '@catalogue/shared/routes';
import { productKeys } from '../api/product-keys';

interface ProductLinkProps extends Omit<LinkProps, 'to' | 'onClick'> {
  product: Product;
}

/**
 * A link to a product's page that answers the press at once (Interaction to Next Paint, docs/performance.md,
 * "Takeover and interactions"): the page renders in a transition, so the frame after the press is painted before it
 * and the rendering yields to the next input, and it opens with the product the link shows, already in the query
 * cache, rather than under the spinner. A press with a modifier key (new tab, new window) is the browser's, as any link's.
 */
export function ProductLink({ product, ...props }: ProductLinkProps) {
  const to = productDetailsPath(product.id);
  const queryClient = useQueryClient();
  // In a transition whatever the router does for the search box's own updates (start-app.tsx).
  const open = useLinkClickHandler(to, { useTransitions: true });
  return (
    <Link
      {...props}
      to={to}
      onClick={(event) => {
        seedProduct(queryClient, product);
        open(event);
      }}
    />
  );
}

/**
 * Puts `product` in the cache under its page's key, unless the page's own answer is there, as fresh as the answer it
 * came with (the list, the gallery or a page of a search): the usual 5 minutes count from then, and a product found in
 * no answer any more counts as stale, so its page asks for it again behind what it shows.
 */
function seedProduct(queryClient: QueryClient, product: Product): void {
  const key = productKeys.detail(product.id);
  if (queryClient.getQueryData(key) !== undefined) return;
  let fetchedAt = 0;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: productKeys.all })) {
    const data: unknown = query.state.data;
    const items: unknown = Array.isArray(data) ? data : (data as { items?: unknown } | undefined)?.items;
    if (Array.isArray(items) && items.includes(product)) fetchedAt = Math.max(fetchedAt, query.state.dataUpdatedAt);
  }
  queryClient.setQueryData(key, product, { updatedAt: fetchedAt });
}
