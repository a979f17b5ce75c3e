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

  /* A card far from the screen is neither styled nor painted until it nears it: the theme switch restyles and
     repaints what is near the screen, not the whole list (docs/performance.md, "The theme switch, second round").
     Until a card has been drawn once, it holds a card's usual height (its photo is square: one column is the
     screen's width less the page's padding, the text under it some 110-150 px more; two to four columns make cards
     of 400-510 px). */
  > li {
    content-visibility: auto;
    contain-intrinsic-block-size: auto calc(100vw + 110px);
    /* What the card draws outside its box, which the containment would clip: its shadow (hovered, 40 px below),
       its lift on hover and its focus ring. */
    overflow-clip-margin: 48px;

    ${media.sm} {
      contain-intrinsic-block-size: auto 440px;
    }
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
