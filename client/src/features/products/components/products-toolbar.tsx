import { type ReactNode, useId, type RefObject } from 'react';
import styled, { css } from 'styled-components';
import type { ProductsQuery } from '@catalogue/shared/product-paging';
import { PAGE_PATHS, PRODUCTS_PARAMS } from '@catalogue/shared/routes';
import { isSortOption, SORT_OPTIONS, type SortOption } from '@catalogue/shared/sort';
import { StyledButton } from '../../../components/button';
import { visuallyHidden } from '../../../styles/global-style';
import { media } from '../../../styles/theme';
import { SearchIcon } from './search-icon';

const StyledToolbar = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.md};

  ${media.lg} {
    grid-template-columns: minmax(0, 1fr) auto;
  }

  /* The filters, under the search and the menus, across the toolbar. */
  > details {
    grid-column: 1 / -1;
  }
`;

/**
 * The category and sort menus (and the Apply button without JavaScript): side by side where each gets room for its
 * longest usual choice ("Price: High → Low", a category name), each on a row of its own on a phone.
 */
const StyledMenus = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
`;

const StyledLabel = styled.label`
  ${visuallyHidden}
`;

/** The look both controls share: a pill-shaped field on the card surface. */
const field = css`
  width: 100%;
  min-height: 48px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  box-shadow: ${({ theme }) => theme.shadow.card};

  &:hover {
    border-color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const StyledSearchField = styled.div`
  position: relative;

  svg {
    position: absolute;
    top: 50%;
    left: 18px;
    width: 20px;
    height: 20px;
    color: ${({ theme }) => theme.colors.textMuted};
    transform: translateY(-50%);
    pointer-events: none;
  }
`;

const StyledSearchInput = styled.input`
  ${field}
  padding: 0 ${({ theme }) => theme.space.md} 0 48px;

  &::placeholder {
    color: ${({ theme }) => theme.colors.textMuted};
    opacity: 1;
  }
`;

const StyledSelect = styled.select`
  ${field}
  flex: 1 1 200px;
  padding: 0 ${({ theme }) => theme.space.md} 0 ${({ theme }) => theme.space.lg};
  cursor: pointer;

  ${media.lg} {
    flex: none;
    width: 220px;
  }
`;

/** The toolbar shows and sets what the list shows but its page (ProductsQuery: `''` is every category). */
interface ProductsToolbarProps extends Omit<ProductsQuery, 'page'> {
  onSearchChange: (search: string) => void;
  /** The catalogue's categories, in catalogue order. */
  categories: readonly string[];
  onCategoryChange: (category: string) => void;
  onSortChange: (sort: SortOption) => void;
  /** The form, for `typedValues`. */
  formRef?: RefObject<HTMLFormElement | null>;
  /** More of the form's controls (the filters), sent with it. */
  children?: ReactNode;
}

/** What the toolbar's controls hold: the text of each parameter, as typed or chosen ('' for none). */
export interface TypedValues extends Omit<ProductsQuery, 'page' | 'minPrice' | 'maxPrice' | 'minRating'> {
  minPrice: string;
  maxPrice: string;
  minRating: string;
}

/**
 * What the toolbar's controls hold now: what the list shows, or what the visitor typed and chose in the server's page
 * before the app took it over (React keeps the values the controls hold when it hydrates them).
 */
export function typedValues(form: HTMLFormElement): TypedValues {
  // A radio group is a RadioNodeList, whose value is the checked radio's.
  const value = (name: string) =>
    (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | RadioNodeList | null)?.value ?? '';
  const sort = value(PRODUCTS_PARAMS.sort);
  return {
    search: value(PRODUCTS_PARAMS.search),
    category: value(PRODUCTS_PARAMS.category),
    sort: isSortOption(sort) ? sort : 'none',
    minPrice: value(PRODUCTS_PARAMS.minPrice),
    maxPrice: value(PRODUCTS_PARAMS.maxPrice),
    minRating: value(PRODUCTS_PARAMS.minRating),
  };
}

/** Whether two readings of the toolbar hold the same text in every control. */
export function sameTypedValues(a: TypedValues, b: TypedValues): boolean {
  return (
    a.search === b.search &&
    a.category === b.category &&
    a.sort === b.sort &&
    a.minPrice === b.minPrice &&
    a.maxPrice === b.maxPrice &&
    a.minRating === b.minRating
  );
}

/**
 * The products list's controls: the search box, the category menu and the sort menu, in one search landmark.
 * They are a GET form of `/products?q=…&category=…&sort=…`, so a browser without JavaScript searches, filters and
 * sorts through the server; the app does it as the visitor types and chooses, and keeps the form from being sent.
 */
export function ProductsToolbar({
  search,
  onSearchChange,
  category,
  categories,
  onCategoryChange,
  sort,
  onSortChange,
  formRef,
  children,
}: ProductsToolbarProps) {
  const searchId = useId();
  const categoryId = useId();
  const sortId = useId();
  // A name the catalogue does not hold (an old or mistyped link) is still shown as chosen, with its empty list,
  // rather than a menu saying "All categories" over no products.
  const offered = category === '' || categories.includes(category) ? categories : [...categories, category];
  return (
    <StyledToolbar ref={formRef} role="search" action={PAGE_PATHS.products} method="get" onSubmit={(event) => event.preventDefault()}>
      <StyledSearchField>
        <StyledLabel htmlFor={searchId}>Search products</StyledLabel>
        <SearchIcon />
        <StyledSearchInput
          id={searchId}
          name={PRODUCTS_PARAMS.search}
          type="search"
          placeholder="Search products..."
          autoComplete="off"
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
        />
      </StyledSearchField>
      <StyledMenus>
        <StyledLabel htmlFor={categoryId}>Filter by category</StyledLabel>
        <StyledSelect
          id={categoryId}
          name={PRODUCTS_PARAMS.category}
          value={category}
          onChange={(event) => onCategoryChange(event.target.value)}
        >
          <option value="">All categories</option>
          {offered.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </StyledSelect>
        <StyledLabel htmlFor={sortId}>Sort products</StyledLabel>
        <StyledSelect
          id={sortId}
          name={PRODUCTS_PARAMS.sort}
          value={sort}
          onChange={(event) => isSortOption(event.target.value) && onSortChange(event.target.value)}
        >
          {SORT_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </StyledSelect>
        {/* Without JavaScript a new choice changes nothing until the form is sent: this button sends it. Browsers
            that run the app never show it (and React renders no <noscript> content in the browser). */}
        <noscript>
          <StyledButton type="submit">Apply</StyledButton>
        </noscript>
      </StyledMenus>
      {children}
    </StyledToolbar>
  );
}
