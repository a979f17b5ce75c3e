import { memo } from 'react';
import styled from 'styled-components';
import type { Product } from '@catalogue/shared/product';
import { media } from '../../../styles/theme';
import { ProductCard } from './product-card';

/** Cards in the first row (up to 4 columns) are the paint candidates, loaded first; the rest wait until they near the viewport. */
const PRIORITY_CARDS = 4;

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
}

/** The product cards of one page. Memoised, so a keystroke re-renders only the search box until the list changes. */
export const ProductGrid = memo(function ProductGrid({ products }: ProductGridProps) {
  return (
    <StyledGrid>
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} priority={index < PRIORITY_CARDS} />
        </li>
      ))}
    </StyledGrid>
  );
});
