import { memo } from 'react';
import styled from 'styled-components';
import type { Product } from '@catalogue/shared/product';
import { media } from '../../../styles/theme';
import { ProductCard } from './product-card';

/**
 * Only the first card's photo is fetched at once, at high priority: it is the largest paint at every width (the first
 * row's photos are the same size, and the first is painted first). The others load as they near the viewport, which
 * on a desktop is as soon as the page is laid out; on a phone, where the first card fills the screen, the next
 * photos no longer share its bandwidth before it is painted (docs/performance.md, "Search as you type").
 */
const PRIORITY_CARDS = 1;

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

interface ProductGridProps {
  /** One page of the list (shared/src/product-paging.ts): never more than a page's worth of cards. */
  products: readonly Product[];
  /** Cards below the page's lead (a product's related products): every photo lazy, none the largest paint. */
  lazy?: boolean;
  /** The cards' title level: `h2` under the page's title, `h3` under a section's heading. */
  titleLevel?: 'h2' | 'h3';
}

/** The product cards of one page. Memoised, so a keystroke re-renders only the search box until the list changes. */
export const ProductGrid = memo(function ProductGrid({ products, lazy = false, titleLevel }: ProductGridProps) {
  return (
    <StyledGrid>
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} priority={!lazy && index < PRIORITY_CARDS} titleLevel={titleLevel} />
        </li>
      ))}
    </StyledGrid>
  );
});
