import { useDeferredValue, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { categoriesOf } from '@catalogue/shared/categories';
import { MESSAGES } from '@catalogue/shared/messages';
import { PRODUCTS_PARAMS } from '@catalogue/shared/routes';
import { filterAndSortProducts, isSortOption, type SortOption } from '@catalogue/shared/sort';
import { LoadError } from '../components/load-error';
import { StyledLead, StyledPage, StyledPageHeader, StyledTitle } from '../components/page';
import { Spinner } from '../components/spinner';
import { useProducts } from '../features/products/api/get-products';
import { ProductGrid } from '../features/products/components/product-grid';
import { ProductsToolbar } from '../features/products/components/products-toolbar';
import { useDocumentTitle } from '../hooks/use-document-title';

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

export function ProductsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  // The list's state lives in the URL (`?q=…&category=…&sort=…`), so reload, Back and shared links keep it.
  const search = searchParams.get(PRODUCTS_PARAMS.search) ?? '';
  const category = searchParams.get(PRODUCTS_PARAMS.category) ?? '';
  useDocumentTitle({ kind: 'products', query: search, category });
  const requestedSort = searchParams.get(PRODUCTS_PARAMS.sort);
  const sort: SortOption = isSortOption(requestedSort) ? requestedSort : 'none';
  // The box follows every keystroke at once; the grid and the count follow the deferred text, in a render
  // React can interrupt for the next keystroke.
  const deferredSearch = useDeferredValue(search);
  const { data, isFetching, isError, refetch } = useProducts();
  const matches = useMemo(
    () => (data ? filterAndSortProducts(data, { category, search: deferredSearch, sort }) : []),
    [data, category, deferredSearch, sort],
  );
  // The menu offers the categories of the list the page already has: no request of its own.
  const categories = useMemo(() => (data ? categoriesOf(data) : []), [data]);

  /**
   * Typing replaces the history entry (Back is not flooded with one entry per letter); a new category or sort is
   * its own entry. The router navigates synchronously (see main.tsx), so the input can be controlled by the URL itself.
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
        <StyledLead>Search by name, narrow by category, sort by price or title, and open any product for the full story.</StyledLead>
      </StyledPageHeader>

      <ProductsToolbar
        search={search}
        onSearchChange={(value) => setParam(PRODUCTS_PARAMS.search, value, value === '', true)}
        category={category}
        categories={categories}
        onCategoryChange={(value) => setParam(PRODUCTS_PARAMS.category, value, value === '', false)}
        sort={sort}
        onSortChange={(value) => setParam(PRODUCTS_PARAMS.sort, value, value === 'none', false)}
      />

      {data && (
        <>
          <StyledCount aria-live="polite">
            {matches.length === data.length ? countProducts(data.length) : `${matches.length} of ${countProducts(data.length)}`}
          </StyledCount>
          {matches.length > 0 ? (
            <ProductGrid products={matches} resetKey={JSON.stringify([category, sort, deferredSearch])} />
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
