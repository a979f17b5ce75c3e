import { useId } from 'react';
import { AppLink } from '../../../components/app-link';
import styled from 'styled-components';
import { MIN_RATINGS, type MinRating, type ProductFacets } from '@catalogue/shared/product-filters';
import { type ProductsQuery, productsPagePath } from '@catalogue/shared/product-paging';
import { PRODUCTS_PARAMS } from '@catalogue/shared/routes';
import { StyledButton } from '../../../components/button';
import { formatPrice } from '../../../lib/format-price';
import { media } from '../../../styles/theme';

/**
 * On a phone the filters fold into a disclosure; from the bar's breakpoint up they are always shown, its summary
 * hidden: `::details-content` is the part a closed <details> hides, so CSS alone opens it, in the server's HTML too.
 */
const StyledDisclosure = styled.details`
  margin-bottom: ${({ theme }) => theme.space.lg};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.card};

  > summary {
    min-height: 48px;
    padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.lg};
    font-weight: 600;
    line-height: 32px;
    cursor: pointer;
  }

  ${media.lg} {
    &::details-content {
      content-visibility: visible;
      block-size: auto;
    }

    > summary {
      display: none;
    }
  }
`;

const StyledPanel = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.lg} ${({ theme }) => theme.space.lg};

  ${media.lg} {
    grid-template-columns: auto minmax(0, 1fr);
    column-gap: ${({ theme }) => theme.space.xl};
    align-items: start;
    padding-top: ${({ theme }) => theme.space.lg};

    > nav {
      grid-column: 1 / -1;
    }
  }
`;

const StyledFieldset = styled.fieldset`
  min-width: 0;
  margin: 0;
  padding: 0;
  border: 0;

  > legend {
    margin-bottom: ${({ theme }) => theme.space.sm};
    padding: 0;
    font-weight: 600;
  }
`;

const StyledRange = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space.sm};

  label {
    display: grid;
    gap: ${({ theme }) => theme.space.xs};
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.font.sizeSm};
  }

  input {
    width: 7.5rem;
    min-height: 44px;
    padding: 0 ${({ theme }) => theme.space.md};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.md};
    background: ${({ theme }) => theme.colors.background};
    color: ${({ theme }) => theme.colors.text};
    font-size: ${({ theme }) => theme.font.sizeMd};
  }

  input::placeholder {
    color: ${({ theme }) => theme.colors.textMuted};
    opacity: 1;
  }
`;

/** The ratings' radios, and the categories' links (links, not a list: the page's list items are its cards). */
const StyledChoices = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.md};

  label,
  a {
    display: inline-flex;
    gap: ${({ theme }) => theme.space.xs};
    align-items: center;
    min-height: 32px;
    color: ${({ theme }) => theme.colors.text};
    cursor: pointer;
  }

  a[aria-current='true'] {
    font-weight: 700;
  }

  /* The site's accent, not the browser's blue (docs/screenshots). */
  input[type='radio'] {
    width: 18px;
    height: 18px;
    margin: 0;
    accent-color: ${({ theme }) => theme.colors.accentStrong};
  }
`;

const StyledCount = styled.span`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.font.sizeSm};
`;

const StyledActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.md};
  align-items: center;

  ${media.lg} {
    grid-column: 1 / -1;
  }

  a {
    color: ${({ theme }) => theme.colors.accentStrong};
    font-weight: 600;
  }
`;

/** Named as the fieldsets' legends are, not a heading: the page's headings below its title are the cards'. */
const StyledNavName = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.sm};
  font-weight: 600;
`;

/** What the price boxes hold: the URL's text as typed, so a half-typed `1.` stays as it is. */
export interface TypedPrices {
  minPrice: string;
  maxPrice: string;
}

interface ProductsFiltersProps {
  query: ProductsQuery;
  prices: TypedPrices;
  facets: ProductFacets | undefined;
  onPriceChange: (name: keyof TypedPrices, value: string) => void;
  onRatingChange: (minRating: MinRating | undefined) => void;
}

/** "4★ & up": the rating filter's words for a least rating. */
export function ratingLabel(min: MinRating): string {
  return `${min}★ & up`;
}

/**
 * The price range, the least rating and each category's count (docs/product.md, "Filters"), inside the toolbar's
 * GET form: without JavaScript, "Apply filters" sends them with the search, category and sort; with it, each change
 * applies at once. Every count leaves out its own kind of filter (shared/src/product-filters.ts).
 */
export function ProductsFilters({ query, prices, facets, onPriceChange, onRatingChange }: ProductsFiltersProps) {
  const fromId = useId();
  const toId = useId();
  const categoriesId = useId();
  const filtered = query.minPrice !== undefined || query.maxPrice !== undefined || query.minRating !== undefined;
  const cleared = productsPagePath({ search: query.search, category: query.category, sort: query.sort, page: 1 });
  const price = facets?.price;
  return (
    <StyledDisclosure open={filtered || undefined}>
      <summary>Filters</summary>
      <StyledPanel>
        <StyledFieldset>
          <legend>Price</legend>
          <StyledRange>
            <label htmlFor={fromId}>
              From
              <input
                id={fromId}
                name={PRODUCTS_PARAMS.minPrice}
                inputMode="decimal"
                autoComplete="off"
                placeholder={price ? formatPrice(price.min) : '$0.00'}
                value={prices.minPrice}
                onChange={(event) => onPriceChange('minPrice', event.target.value)}
              />
            </label>
            <label htmlFor={toId}>
              To
              <input
                id={toId}
                name={PRODUCTS_PARAMS.maxPrice}
                inputMode="decimal"
                autoComplete="off"
                placeholder={price ? formatPrice(price.max) : 'Any'}
                value={prices.maxPrice}
                onChange={(event) => onPriceChange('maxPrice', event.target.value)}
              />
            </label>
          </StyledRange>
        </StyledFieldset>
        <StyledFieldset>
          <legend>Rating</legend>
          <StyledChoices>
            <label>
              <input
                type="radio"
                name={PRODUCTS_PARAMS.minRating}
                value=""
                checked={query.minRating === undefined}
                onChange={() => onRatingChange(undefined)}
              />
              Any rating
            </label>
            {MIN_RATINGS.map((min) => (
              <label key={min}>
                <input
                  type="radio"
                  name={PRODUCTS_PARAMS.minRating}
                  value={min}
                  checked={query.minRating === min}
                  onChange={() => onRatingChange(min)}
                />
                {ratingLabel(min)}
                {facets && <StyledCount>({facets.ratings.find((rating) => rating.min === min)?.count ?? 0})</StyledCount>}
              </label>
            ))}
          </StyledChoices>
        </StyledFieldset>
        {facets && (
          <nav aria-labelledby={categoriesId}>
            <StyledNavName id={categoriesId}>Categories</StyledNavName>
            <StyledChoices>
              {facets.categories.map(({ name, count }) => (
                <AppLink
                  key={name}
                  to={productsPagePath({ ...query, category: name, page: 1 })}
                  aria-current={name === query.category || undefined}
                >
                  {name} <StyledCount>({count})</StyledCount>
                </AppLink>
              ))}
            </StyledChoices>
          </nav>
        )}
        <StyledActions>
          {/* Without JavaScript a change applies when the form is sent; with it, at once (and this is never shown). */}
          <noscript>
            <StyledButton type="submit">Apply filters</StyledButton>
          </noscript>
          {filtered && <AppLink to={cleared}>Clear filters</AppLink>}
        </StyledActions>
      </StyledPanel>
    </StyledDisclosure>
  );
}
