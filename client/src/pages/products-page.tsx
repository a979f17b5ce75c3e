import { useDeferredValue, useEffectEvent, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { categoriesOf } from '@catalogue/shared/categories';
import { PAGE_MESSAGES } from '@catalogue/shared/messages';
import type { Product } from '@catalogue/shared/product';
import {
  filterAndSortProducts,
  LOCAL_LIST_MAX_PRODUCTS,
  pageItems,
  readProductsQuery,
  withoutUnsetFormFields,
} from '@catalogue/shared/product-paging';
import { productFacets, type ProductFacets } from '@catalogue/shared/product-filters';
import { PRODUCTS_PARAMS } from '@catalogue/shared/routes';
import { LoadError } from '../components/load-error';
import { StyledLead, StyledPage, StyledPageHeader, StyledTitle } from '../components/page';
import { Spinner } from '../components/spinner';
import { useCategories, useListHeld, useProducts, useProductsSearch } from '../features/products/api/get-products';
import { ProductGrid } from '../features/products/components/product-grid';
import { ProductsPagination } from '../features/products/components/products-pagination';
import { ProductsFilters, type TypedPrices } from '../features/products/components/products-filters';
import { ProductsToolbar, sameTypedValues, typedValues, type TypedValues } from '../features/products/components/products-toolbar';
import { useAdoptedValue } from '../hooks/use-adopted-value';
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

/** What the grid shows: one page of the matches, how many match in all, and the catalogue's size and categories. */
interface ShownPage {
  items: readonly Product[];
  total: number;
  catalogueSize: number;
  categories: readonly string[];
  /** The counts for the search and filters (shared/src/product-filters.ts). */
  facets: ProductFacets | undefined;
}

export function ProductsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  // The list's state lives in the URL (`?q=…&category=…&sort=…&page=…`), so reload, Back and shared links keep it.
  // One object per URL (the router's searchParams is), so the grid's deferred copy below changes only with the URL.
  const query = useMemo(() => readProductsQuery(searchParams), [searchParams]);
  const { search, category, sort, page, minRating } = query;
  // The price boxes show the URL's text as typed; the list reads it as a number (readProductsQuery).
  const prices: TypedPrices = {
    minPrice: searchParams.get(PRODUCTS_PARAMS.minPrice) ?? '',
    maxPrice: searchParams.get(PRODUCTS_PARAMS.maxPrice) ?? '',
  };
  useDocumentTitle({ kind: 'products', search, category });

  // Two ways to the same list (docs/product.md, "Products"). A catalogue small enough to travel is held whole and
  // filtered here as the visitor types: the box follows every keystroke at once, the grid the deferred text, in a
  // render React can interrupt. A larger one is searched by the server, a page at a time, at every keystroke: the
  // text's own query, whose request for the text before is cancelled and whose answer alone can replace the grid
  // (get-products.ts), so a typist waits for one answer after the last key, never for a pause.
  // Every piece is read through a subscription (the cache's, useQuery's), so the page re-renders when it changes.
  const listHeld = useListHeld();
  const searched = useProductsSearch(query, !listHeld);
  // The server's first answer tells the catalogue's size: a small one is fetched whole, and searched here from then on.
  const small = searched.data !== undefined && searched.data.catalogueSize <= LOCAL_LIST_MAX_PRODUCTS;
  const list = useProducts(listHeld || small);
  const local = list.data !== undefined;
  const categoriesQuery = useCategories(!local && searched.data !== undefined && !small);
  // The menus and filters too: the chosen option shows at once, the grid follows in a render that does not hold up
  // that paint.
  const deferredQuery = useDeferredValue(query);
  // And the server's answers: one may land as the next key is pressed, and a new grid over the last is then drawn in
  // a render that yields to that key, so the box's frame never waits for 24 cards. The first answer is drawn at once.
  const deferredSearched = useDeferredValue(searched.data) ?? searched.data;
  const shown = useMemo((): ShownPage | undefined => {
    if (list.data) {
      const { search, category, sort, page, minPrice, maxPrice, minRating } = deferredQuery;
      const filters = { minPrice, maxPrice, minRating };
      const matches = filterAndSortProducts(list.data, { category, search, sort, ...filters });
      const categories = categoriesOf(list.data);
      return {
        items: pageItems(matches, page),
        total: matches.length,
        catalogueSize: list.data.length,
        categories,
        facets: productFacets(list.data, { category, search, ...filters }, categories),
      };
    }
    if (!deferredSearched) return undefined;
    const { items, total, catalogueSize, facets } = deferredSearched;
    return { items, total, catalogueSize, categories: categoriesQuery.data ?? [], facets };
  }, [list.data, deferredSearched, categoriesQuery.data, deferredQuery]);
  const active = local ? list : searched;

  // A new page opens at its top, as a new page of the site does (layout.tsx scrolls on a new path).
  const shownPage = useRef(page);
  useLayoutEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    window.scrollTo(0, 0);
  }, [page]);

  /**
   * Typing replaces the history entry (Back is not flooded with one entry per letter); a new category or sort is
   * its own entry. Each starts again at the first page. The router navigates synchronously (see main.tsx), so the
   * input can be controlled by the URL itself.
   */
  const setParams = (changes: Partial<TypedValues>, replace: boolean) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        const set = (name: string, value: string, isDefault: boolean) => (isDefault ? next.delete(name) : next.set(name, value));
        if (changes.search !== undefined) set(PRODUCTS_PARAMS.search, changes.search, changes.search === '');
        if (changes.category !== undefined) set(PRODUCTS_PARAMS.category, changes.category, changes.category === '');
        if (changes.sort !== undefined) set(PRODUCTS_PARAMS.sort, changes.sort, changes.sort === 'none');
        for (const name of [PRODUCTS_PARAMS.minPrice, PRODUCTS_PARAMS.maxPrice, PRODUCTS_PARAMS.minRating] as const) {
          const value = changes[name];
          if (value !== undefined) set(name, value, value === '');
        }
        next.delete(PRODUCTS_PARAMS.page);
        return next;
      },
      { replace },
    );
  };

  /**
   * A page the toolbar's form was sent to without scripts carries its unset fields (`?q=&minPrice=&…`), which mean
   * "not set" to the server and the app alike: the app spells its URL as it spells every list's, replacing the entry.
   * (Before the adoption below: both navigate from this render's URL, and the adoption, which sets every field of the
   * form, must be the one that lands.)
   */
  const spellUrl = useEffectEvent(() => {
    const raw = searchParams.toString();
    const spelt = withoutUnsetFormFields(raw);
    if (spelt !== raw) setSearchParams(new URLSearchParams(spelt), { replace: true });
  });
  useLayoutEffect(() => spellUrl(), []);

  /**
   * A visitor may type and choose in the server's page before the app has taken it over (docs/pages.md, "Before the
   * app"). What the toolbar holds when the page mounts wins over the URL: the address follows it, replaced as typing
   * replaces it, and the list with it, before the app's first frame. (Declared after useSearchParams, whose own layout
   * effect must have run for the router to take the navigation.)
   */
  const toolbarRef = useRef<HTMLFormElement>(null);
  const shownValues: TypedValues = { search, category, sort, ...prices, minRating: minRating === undefined ? '' : String(minRating) };
  useAdoptedValue(
    () => (toolbarRef.current ? typedValues(toolbarRef.current) : null),
    shownValues,
    (typed) => setParams(typed, true),
    sameTypedValues,
  );

  return (
    <StyledPage>
      <StyledPageHeader>
        <StyledTitle>Our Products</StyledTitle>
        <StyledLead>Search by name, narrow by category, sort by price or title, and open any product for the full story.</StyledLead>
      </StyledPageHeader>

      <ProductsToolbar
        search={search}
        onSearchChange={(value) => setParams({ search: value }, true)}
        category={category}
        categories={shown?.categories ?? []}
        onCategoryChange={(value) => setParams({ category: value }, false)}
        sort={sort}
        onSortChange={(value) => setParams({ sort: value }, false)}
        formRef={toolbarRef}
      >
        <ProductsFilters
          query={query}
          prices={prices}
          facets={shown?.facets}
          onPriceChange={(name, value) => setParams({ [name]: value }, true)}
          onRatingChange={(value) => setParams({ minRating: value === undefined ? '' : String(value) }, false)}
        />
      </ProductsToolbar>

      {shown && (
        <>
          <StyledCount aria-live="polite">
            {shown.total === shown.catalogueSize ? countProducts(shown.total) : `${shown.total} of ${countProducts(shown.catalogueSize)}`}
          </StyledCount>
          {shown.items.length > 0 ? <ProductGrid products={shown.items} /> : <StyledEmpty>{PAGE_MESSAGES.noProductsFound}</StyledEmpty>}
          <ProductsPagination query={query} total={shown.total} />
        </>
      )}
      {active.isError && !active.isFetching && !shown && <LoadError onRetry={() => void active.refetch()} />}
      {/* The last page stays on screen while the next is on its way (placeholder data): no spinner over it. */}
      {active.isFetching && !active.isPlaceholderData && <Spinner />}
    </StyledPage>
  );
}
