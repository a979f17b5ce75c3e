import styled from 'styled-components';
import type { Product } from '@catalogue/shared/product';
import { media } from '../../../styles/theme';
import { ProductCard } from './product-card';

/** Cards in the first row (up to 4 columns) load eagerly; the rest wait until they near the viewport. */
const EAGER_CARDS = 4;

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

export function ProductGrid({ products }: { products: readonly Product[] }) {
  return (
    <StyledGrid>
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} eager={index < EAGER_CARDS} />
        </li>
      ))}
    </StyledGrid>
  );
}
