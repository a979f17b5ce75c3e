import { memo } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { Product } from '@catalogue/shared/product';
import { productDetailsPath } from '@catalogue/shared/routes';
import { Badge } from '../../../components/badge';
import { StarRating } from '../../../components/star-rating';
import { formatPrice } from '../../../lib/format-price';
import { cardSurface } from './card-surface';
import { ProductImage } from './product-image';

/** docs/product.md, "Products": a card shows 4 stars when the product has no rating. */
const CARD_DEFAULT_RATE = 4;

const StyledCard = styled(Link)`
  ${cardSurface}
  padding: ${({ theme }) => theme.space.sm};
  transition:
    box-shadow ${({ theme }) => theme.transition.quick},
    transform ${({ theme }) => theme.transition.quick},
    border-color ${({ theme }) => theme.transition.quick};

  &:hover {
    transform: translateY(-2px);
    border-color: ${({ theme }) => theme.colors.accentStrong};
  }

  &:hover img {
    transform: scale(1.04);
  }
`;

const StyledBody = styled.div`
  display: flex;
  flex: 1;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => `${theme.space.md} ${theme.space.sm} ${theme.space.sm}`};
`;

const StyledTitle = styled.h2`
  display: -webkit-box;
  overflow: hidden;
  font-size: 1rem;
  font-weight: 600;
  line-height: 1.4;
  -webkit-box-orient: vertical;
  -webkit-line-clamp: 2;
`;

const StyledFooter = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.sm};
  margin-top: auto;
  padding-top: ${({ theme }) => theme.space.sm};
`;

const StyledPrice = styled.span`
  font-size: 1.25rem;
  font-weight: 800;
  color: ${({ theme }) => theme.colors.text};
`;

interface ProductCardProps {
  product: Product;
  /** Its photo is a largest-contentful-paint candidate (ProductImage's `priority`). */
  priority?: boolean;
}

/**
 * One link to the product's page: image, category, title, stars and price. Memoised: when the grid grows or
 * the search changes, the cards that stay are not rendered again.
 */
export const ProductCard = memo(function ProductCard({ product, priority = false }: ProductCardProps) {
  return (
    <StyledCard to={productDetailsPath(product.id)}>
      <ProductImage src={product.image} alt={product.title} layout="grid" priority={priority} />
      <StyledBody>
        <Badge>{product.category}</Badge>
        <StyledTitle>{product.title}</StyledTitle>
        <StyledFooter>
          <StarRating rate={product.rating?.rate ?? CARD_DEFAULT_RATE} size={16} />
          <StyledPrice>{formatPrice(product.price)}</StyledPrice>
        </StyledFooter>
      </StyledBody>
    </StyledCard>
  );
});
