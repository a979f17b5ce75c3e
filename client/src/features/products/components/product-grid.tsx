import { memo, useLayoutEffect, useRef } from 'react';
import styled from 'styled-components';
import type { Product } from '@catalogue/shared/product';
import { StyledButton } from '../../../components/button';
import { useProgressiveList } from '../../../hooks/use-progressive-list';
import { media } from '../../../styles/theme';
import { PRODUCT_LINK_SELECTOR, ProductCard } from './product-card';

/** Cards in the first row (up to 4 columns) are the paint candidates, loaded first; the rest wait until they near the viewport. */
const PRIORITY_CARDS = 4;
/**
 * The grid opens with 48 cards, a few screens' worth, and adds 48 each time the visitor nears the end; a new
 * search or sort paints 12 first (three rows of four, more than a desktop screen shows) and the rest of its 48
 * right after. So a 5,000-product catalogue costs 12 cards between a pasted word and its first matches on
 * screen. Both are divisible by 1, 2, 3 and 4, so every step ends on a full row.
 */
const GRID_SIZES = { chunk: 48, firstScreen: 12 };

const StyledGrid = styled.ul`
  display: grid;
  grid-template-columns: 1fr;
  gap: ${({ theme }) => theme.space.lg};
  margin: 0;
  padding: 0;
  list-style: none;

  ${media.sm} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }

  ${media.md} {
    grid-template-columns: repeat(3, minmax(0, 1fr));
  }

  ${media.lg} {
    grid-template-columns: repeat(4, minmax(0, 1fr));
  }
`;

const StyledMore = styled.div`
  display: flex;
  justify-content: center;
  margin-top: ${({ theme }) => theme.space.xl};
`;

interface ProductGridProps {
  products: readonly Product[];
  /** Changes with the category, search and sort: a new one starts again at the first chunk. */
  resetKey: string;
}

/**
 * The product cards, rendered a chunk at a time: the next chunk is appended as the visitor scrolls near the end,
 * or with the "Show more products" button (keyboard, or a browser without IntersectionObserver). Memoised, so
 * a keystroke re-renders only the search box until the deferred search reaches the grid.
 */
export const ProductGrid = memo(function ProductGrid({ products, resetKey }: ProductGridProps) {
  const { shown, hasMore, showMore, sentinelRef } = useProgressiveList(products, GRID_SIZES, resetKey);
  const listRef = useRef<HTMLUListElement>(null);
  // Set by the button: focus moves to the first new card's product link, so the keyboard carries on where the list grew.
  const focusIndex = useRef<number | null>(null);

  useLayoutEffect(() => {
    const index = focusIndex.current;
    if (index === null) return;
    focusIndex.current = null;
    listRef.current?.children[index]?.querySelector<HTMLElement>(PRODUCT_LINK_SELECTOR)?.focus();
  }, [shown]);

  return (
    <>
      <StyledGrid ref={listRef}>
        {shown.map((product, index) => (
          <li key={product.id}>
            <ProductCard product={product} priority={index < PRIORITY_CARDS} />
          </li>
        ))}
      </StyledGrid>
      {hasMore && (
        <StyledMore ref={sentinelRef}>
          <StyledButton
            type="button"
            onClick={() => {
              focusIndex.current = shown.length;
              showMore();
            }}
          >
            Show more products
          </StyledButton>
        </StyledMore>
      )}
    </>
  );
});
