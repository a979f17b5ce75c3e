import { AppLink } from '../../../components/app-link';
import styled from 'styled-components';
import { pageCount, productsPagePath, type ProductsQuery } from '@catalogue/shared/product-paging';

/** Pages listed on each side of the current one; the first and the last are always listed. */
const NEIGHBOURS = 2;

const StyledNav = styled.nav`
  margin-top: ${({ theme }) => theme.space.xl};
`;

const StyledList = styled.ol`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: ${({ theme }) => theme.space.sm};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const StyledPageLink = styled(AppLink)`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-width: 48px;
  min-height: 48px;
  padding: 0 ${({ theme }) => theme.space.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  font-weight: 600;
  text-decoration: none;

  &:hover {
    border-color: ${({ theme }) => theme.colors.accentStrong};
  }

  &[aria-current='page'] {
    border-color: ${({ theme }) => theme.colors.accentStrong};
    background: ${({ theme }) => theme.colors.accentStrong};
    color: ${({ theme }) => theme.colors.onAccent};
  }
`;

const StyledGap = styled.span`
  display: inline-flex;
  align-items: center;
  min-height: 48px;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** The page numbers to list: the first, the last, and the current one with its neighbours; null marks a gap. */
export function listedPages(current: number, last: number): (number | null)[] {
  const listed: (number | null)[] = [];
  for (let page = 1; page <= last; page++) {
    const near = Math.abs(page - current) <= NEIGHBOURS;
    if (page === 1 || page === last || near) listed.push(page);
    else if (listed.at(-1) !== null) listed.push(null);
  }
  return listed;
}

interface ProductsPaginationProps {
  /** The list state of the page shown (its search, category and sort are kept by every link). */
  query: ProductsQuery;
  /** How many products match in all. */
  total: number;
}

/**
 * Links to the other pages of the list (docs/product.md, "Products"): Previous and Next (`rel="prev"`/`"next"`)
 * and page numbers, each a real link to `/products?…&page=n`, so the pages read the same without JavaScript and a
 * crawler reaches every product. Nothing is shown while everything fits on one page.
 */
export function ProductsPagination({ query, total }: ProductsPaginationProps) {
  const last = pageCount(total);
  if (last <= 1) return null;
  const to = (page: number) => productsPagePath({ ...query, page });
  return (
    <StyledNav aria-label="Pages of products">
      <StyledList>
        {query.page > 1 && (
          <li>
            {/* From past the last page (a stale link), back to the last. */}
            <StyledPageLink to={to(Math.min(query.page - 1, last))} rel="prev">
              Previous
            </StyledPageLink>
          </li>
        )}
        {listedPages(query.page, last).map((page, index) =>
          page === null ? (
            <li key={`gap-${index}`} aria-hidden="true">
              <StyledGap>…</StyledGap>
            </li>
          ) : (
            <li key={page}>
              <StyledPageLink to={to(page)} aria-label={`Page ${page}`} {...(page === query.page && { 'aria-current': 'page' as const })}>
                {page}
              </StyledPageLink>
            </li>
          ),
        )}
        {query.page < last && (
          <li>
            <StyledPageLink to={to(query.page + 1)} rel="next">
              Next
            </StyledPageLink>
          </li>
        )}
      </StyledList>
    </StyledNav>
  );
}
