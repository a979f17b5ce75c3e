import styled from 'styled-components';
import type { Product } from '@catalogue/shared/product';
import { useRelatedProducts } from '../api/get-related-products';
import { ProductGrid } from './product-grid';

/** docs/product.md, "Product detail": the heading above a product's related products. */
export const RELATED_HEADING = 'Related products';
/** The page has one such section (the product page's), so one id names it. */
const HEADING_ID = 'related-products';

const StyledSection = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  margin-top: ${({ theme }) => theme.space.xxl};
`;

const StyledHeading = styled.h2`
  font-size: ${({ theme }) => theme.font.sizeLg};
  font-weight: 800;
`;

/**
 * Up to four other products of the product's category below it, as the grid's cards (links that open as a card
 * does), their photos lazy: never the page's largest paint. Nothing at all while there are none (its category's only
 * product) or while they are being asked for: the section is the page's last, so its arrival moves nothing.
 */
export function RelatedProducts({ product }: { product: Product }) {
  const { data: related } = useRelatedProducts(product);
  if (!related || related.length === 0) return null;
  return (
    <StyledSection aria-labelledby={HEADING_ID}>
      <StyledHeading id={HEADING_ID}>{RELATED_HEADING}</StyledHeading>
      <ProductGrid products={related} lazy titleLevel="h3" />
    </StyledSection>
  );
}
