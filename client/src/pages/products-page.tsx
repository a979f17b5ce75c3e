import { useDeferredValue, useId, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { MESSAGES } from '@catalogue/shared/messages';
import { filterAndSortProducts, isSortOption, SORT_OPTIONS, type SortOption } from '@catalogue/shared/sort';
import { LoadError } from '../components/load-error';
import { StyledLead, StyledPage, StyledPageHeader, StyledTitle } from '../components/page';
import { Spinner } from '../components/spinner';
import { useProducts } from '../features/products/api/get-products';
import { ProductGrid } from '../features/products/components/product-grid';
import { useDocumentTitle } from '../hooks/use-document-title';
import { visuallyHidden } from '../styles/global-style';
import { media } from '../styles/theme';

/** The list's state lives in the URL (`?q=…&sort=…`), so reload, Back and shared links keep it. */
const SEARCH_PARAM = 'q';
const SORT_PARAM = 'sort';

const StyledToolbar = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.md};

  ${media.sm} {
    grid-template-columns: minmax(0, 1fr) auto;
  }
`;

const StyledLabel = styled.label`
  ${visuallyHidden}
`;

const fieldStyles = `
  width: 100%;
  min-height: 48px;
  border-radius: 999px;
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
  ${fieldStyles}
  padding: 0 ${({ theme }) => theme.space.md} 0 48px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  box-shadow: ${({ theme }) => theme.shadow.card};

  &::placeholder {
    color: ${({ theme }) => theme.colors.textMuted};
    opacity: 1;
  }

  &:hover {
    border-color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const StyledSelect = styled.select`
  ${fieldStyles}
  padding: 0 ${({ theme }) => theme.space.xl} 0 ${({ theme }) => theme.space.lg};
  border: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  box-shadow: ${({ theme }) => theme.shadow.card};
  cursor: pointer;

  &:hover {
    border-color: ${({ theme }) => theme.colors.textMuted};
  }

  ${media.sm} {
    min-width: 220px;
  }
`;

const StyledCount = styled.p`
  margin-bottom: ${({ theme }) => theme.space.lg};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.font.sizeSm};
`;

const StyledEmpty = styled.p`
  padding: ${({ theme }) => theme.space.xxl} ${({ theme }) => theme.space.lg};
  border: 1px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.font.sizeLg};
  text-align: center;
`;

function countProducts(count: number): string {
  return `${count} ${count === 1 ? 'product' : 'products'}`;
}

function SearchIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <circle cx="11" cy="11" r="7" />
      <path d="M20 20l-3.5-3.5" />
    </svg>
  );
}

export function ProductsPage() {
  useDocumentTitle('Our Products');
  const searchId = useId();
  const sortId = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.get(SEARCH_PARAM) ?? '';
  const requestedSort = searchParams.get(SORT_PARAM);
  const sort: SortOption = isSortOption(requestedSort) ? requestedSort : 'none';
  // The box follows every keystroke at once; the grid and the count follow the deferred text, in a render
  // React can interrupt for the next keystroke.
  const deferredSearch = useDeferredValue(search);
  const { data, isFetching, isError, refetch } = useProducts();
  const matches = useMemo(() => (data ? filterAndSortProducts(data, deferredSearch, sort) : []), [data, deferredSearch, sort]);

  /**
   * Typing replaces the history entry (Back is not flooded with one entry per letter); a new sort is its own
   * entry. The router navigates synchronously (see main.tsx), so the input can be controlled by the URL itself.
   */
  const setParam = (name: string, value: string, isDefault: boolean, replace: boolean) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (isDefault) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace },
    );
  };

  return (
    <StyledPage>
      <StyledPageHeader>
        <StyledTitle>Our Products</StyledTitle>
        <StyledLead>Search by name, sort by price or title, and open any product for the full story.</StyledLead>
      </StyledPageHeader>

      <StyledToolbar role="search">
        <StyledSearchField>
          <StyledLabel htmlFor={searchId}>Search products</StyledLabel>
          <SearchIcon />
          <StyledSearchInput
            id={searchId}
            type="search"
            placeholder="Search products..."
            autoComplete="off"
            value={search}
            onChange={(event) => setParam(SEARCH_PARAM, event.target.value, event.target.value === '', true)}
          />
        </StyledSearchField>
        <div>
          <StyledLabel htmlFor={sortId}>Sort products</StyledLabel>
          <StyledSelect
            id={sortId}
            value={sort}
            onChange={(event) => setParam(SORT_PARAM, event.target.value, event.target.value === 'none', false)}
          >
            {SORT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </StyledSelect>
        </div>
      </StyledToolbar>

      {data && (
        <>
          <StyledCount aria-live="polite">
            {matches.length === data.length ? countProducts(data.length) : `${matches.length} of ${countProducts(data.length)}`}
          </StyledCount>
          {matches.length > 0 ? (
            <ProductGrid products={matches} resetKey={`${sort} ${deferredSearch}`} />
          ) : (
            <StyledEmpty>{MESSAGES.noProductsFound}</StyledEmpty>
          )}
        </>
      )}
      {isError && !isFetching && !data && <LoadError onRetry={() => void refetch()} />}
      {isFetching && <Spinner />}
    </StyledPage>
  );
}
