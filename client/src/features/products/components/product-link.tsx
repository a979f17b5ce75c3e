import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { startTransition, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { AppLink, type AppLinkProps } from '../../../components/app-link';
import type { Product } from '@catalogue/shared/product';
import { productDetailsPath } from '@catalogue/shared/routes';
import { afterNextPaint } from '../../../lib/after-next-paint';
import { productKeys } from '../api/product-keys';

interface ProductLinkProps extends Omit<AppLinkProps, 'to' | 'onClick'> {
  product: Product;
}

/** A press the app opens itself: the main button, no modifier key (new tab, new window: the browser's, as any link's). */
function opensHere(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/**
 * A link to a product's page that responds to the press at once (Interaction to Next Paint, docs/performance.md,
 * "Takeover and interactions" and "A slower phone"): the press only stops the browser's navigation, and the frame
 * after it is painted first; then the app opens the page, in a transition that yields to the next input, with the
 * product the link shows already in the query cache rather than under the spinner. Opening it there (the history
 * entry, the route's match, the render) cost a phone's main thread some 20–30 ms before that frame.
 */
export function ProductLink({ product, ...props }: ProductLinkProps) {
  const to = productDetailsPath(product.id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <AppLink
      {...props}
      to={to}
      onClick={(event) => {
        if (event.defaultPrevented || !opensHere(event)) return;
        event.preventDefault();
        afterNextPaint(() => {
          seedProduct(queryClient, product);
          startTransition(() => navigate(to));
        });
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
