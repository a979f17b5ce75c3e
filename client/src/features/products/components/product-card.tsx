import { memo } from 'react';
import styled from 'styled-components';
import type { Product } from '@catalogue/shared/product';
import { productsInCategoryPath } from '@catalogue/shared/routes';
import { BadgeLink } from '../../../components/badge';
import { StarRating } from '../../../components/star-rating';
import { shownRate } from '@catalogue/shared/product-filters';
import { formatPrice } from '../../../lib/format-price';
import { cardSurface } from './card-surface';
import { ProductImage } from './product-image';
import { ProductLink } from './product-link';

/**
 * The card holds two links, the product and its category; links cannot nest, so the product's link is the title,
 * stretched over the whole card by its `::after` (the "stretched link"), and the category's sits above it. A press
 * anywhere but the badge opens the product; the card shows its hover and focus as a whole.
 */
const StyledCard = styled.article`
  ${cardSurface}
  position: relative;
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

/** Its name is the product's title; its `::after` covers the card, and draws the card's focus ring. */
const StyledProductLink = styled(ProductLink)`
  color: inherit;
  text-decoration: none;

  &::after {
    content: '';
    position: absolute;
    /* Above what paints as its own layer later in the card (the stars' clip-path), so a press there is the link's. */
    z-index: 1;
    inset: 0;
    border-radius: ${({ theme }) => theme.radius.lg};
  }

  &:focus-visible {
    outline: none;
  }

  &:focus-visible::after {
    outline: 3px solid ${({ theme }) => theme.colors.focusRing};
    outline-offset: 3px;
  }
`;

/** Above the stretched product link, so a press on the badge opens the category. */
const StyledCategoryLink = styled(BadgeLink)`
  position: relative;
  z-index: 2;
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
  /** Its title's heading level (ProductGrid's `titleLevel`). */
  titleLevel?: 'h2' | 'h3';
}

/**
 * A card: image, category (a link to the list of that category), title (the link to the product's page, covering
 * the card), stars and price. Memoised: when the grid grows or the search changes, the cards that stay are not
 * rendered again.
 */
export const ProductCard = memo(function ProductCard({ product, priority = false, titleLevel = 'h2' }: ProductCardProps) {
  return (
    <StyledCard>
      <ProductImage src={product.image} alt={product.title} layout="grid" priority={priority} />
      <StyledBody>
        <StyledCategoryLink to={productsInCategoryPath(product.category)}>{product.category}</StyledCategoryLink>
        <StyledTitle as={titleLevel}>
          <StyledProductLink product={product}>{product.title}</StyledProductLink>
        </StyledTitle>
        <StyledFooter>
          <StarRating rate={shownRate(product)} size={16} />
          <StyledPrice>{formatPrice(product.price)}</StyledPrice>
        </StyledFooter>
      </StyledBody>
    </StyledCard>
  );
});
