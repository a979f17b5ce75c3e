import { lazy } from 'react';
import styled from 'styled-components';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { StyledButtonLink } from '../components/button';
import { LoadError } from '../components/load-error';
import { StyledLead, StyledPage, StyledPageHeader, StyledTitle } from '../components/page';
import { Spinner } from '../components/spinner';
import { useGalleryProducts } from '../features/products/api/get-products';
import type { ProductGallery as Gallery } from '../features/products/components/product-gallery';
import { useDocumentTitle } from '../hooks/use-document-title';
import type { LazyChunk } from '../lib/lazy-chunk';

/** The carousel, with Swiper, is home's own chunk: no other page downloads it. */
export const galleryChunk: LazyChunk<{ ProductGallery: typeof Gallery }> = {
  modulePath: 'src/features/products/components/product-gallery.tsx',
  load: () => import('../features/products/components/product-gallery'),
};

const ProductGallery = lazy(() => galleryChunk.load().then((module) => ({ default: module.ProductGallery })));

const StyledHero = styled(StyledPageHeader)`
  justify-items: center;
  text-align: center;
`;

const StyledEyebrow = styled.p`
  color: ${({ theme }) => theme.colors.accentStrong};
  font-size: ${({ theme }) => theme.font.sizeSm};
  font-weight: 700;
  letter-spacing: 0.12em;
  text-transform: uppercase;
`;

const StyledMore = styled.div`
  display: flex;
  justify-content: center;
  margin-top: ${({ theme }) => theme.space.lg};
`;

export function HomePage() {
  useDocumentTitle({ kind: 'home' });
  const { data, isFetching, isError, refetch } = useGalleryProducts();

  return (
    <StyledPage>
      <StyledHero>
        <StyledEyebrow>Featured picks</StyledEyebrow>
        <StyledTitle>Products Gallery</StyledTitle>
        <StyledLead>A few favourites from the catalogue. Pick one to see the details, or browse everything.</StyledLead>
      </StyledHero>
      {data && <ProductGallery products={data} />}
      {isError && !isFetching && !data && <LoadError onRetry={() => void refetch()} />}
      {/* Shown once the carousel (or its error) is in place: rendered earlier, under the full-screen spinner,
          the link was pushed down by the arriving carousel, the page's one layout shift. */}
      {(data || !isFetching) && (
        <StyledMore>
          <StyledButtonLink to={PAGE_PATHS.products}>See More</StyledButtonLink>
        </StyledMore>
      )}
      {isFetching && <Spinner />}
    </StyledPage>
  );
}
