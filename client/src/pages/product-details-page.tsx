import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import styled from 'styled-components';
import { PAGE_MESSAGES } from '@catalogue/shared/messages';
import { parseProductId } from '@catalogue/shared/product-id';
import { PAGE_PATHS, productsInCategoryPath } from '@catalogue/shared/routes';
import { BadgeLink } from '../components/badge';
import { StyledTextLink } from '../components/button';
import { StyledPage, StyledTitle } from '../components/page';
import { Spinner } from '../components/spinner';
import { StarRating } from '../components/star-rating';
import { useProduct } from '../features/products/api/get-product';
import { ProductImage } from '../features/products/components/product-image';
import { RelatedProducts } from '../features/products/components/related-products';
import { useDocumentTitle } from '../hooks/use-document-title';
import { formatPrice } from '../lib/format-price';
import { media } from '../styles/theme';

/** docs/product.md, "Product detail": the detail page shows a rate of 0 when the product has no rating. */
const DETAIL_DEFAULT_RATE = 0;

const StyledBack = styled.div`
  margin-bottom: ${({ theme }) => theme.space.lg};
`;

const StyledProduct = styled.article`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  padding: ${({ theme }) => theme.space.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.card};

  ${media.md} {
    grid-template-columns: minmax(0, 5fr) minmax(0, 6fr);
    align-items: start;
    padding: ${({ theme }) => theme.space.xl};
  }
`;

const StyledInfo = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  align-content: start;

  ${media.md} {
    padding-top: ${({ theme }) => theme.space.md};
  }
`;

const StyledPrice = styled.p`
  font-size: 2rem;
  font-weight: 800;
  color: ${({ theme }) => theme.colors.accentStrong};
`;

const StyledDescription = styled.p`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 1.0625rem;
  line-height: 1.7;
`;

const StyledMessage = styled.div`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space.lg};
  padding: ${({ theme }) => theme.space.xxl} ${({ theme }) => theme.space.lg};
  border: 1px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  text-align: center;
`;

function BackToProducts() {
  return (
    <StyledTextLink to={PAGE_PATHS.products}>
      <span aria-hidden="true">←</span> Back to Products
    </StyledTextLink>
  );
}

function DetailMessage({ children }: { children: ReactNode }) {
  return (
    <StyledPage>
      <StyledMessage>
        <StyledTitle>{children}</StyledTitle>
        <BackToProducts />
      </StyledMessage>
    </StyledPage>
  );
}

export function ProductDetailsPage() {
  const { id: rawId } = useParams();
  const id = parseProductId(rawId);
  // A non-numeric id skips the query inside useProduct: no request is made at all.
  const { data: product, isFetching, isError } = useProduct(id);
  useDocumentTitle(
    id === null
      ? { kind: 'invalid-id' }
      : isError
        ? { kind: 'product-not-found' }
        : product
          ? { kind: 'product', product }
          : { kind: 'product-loading' },
  );

  if (id === null) return <DetailMessage>{PAGE_MESSAGES.invalidProductId}</DetailMessage>;
  if (isError && !isFetching) return <DetailMessage>{PAGE_MESSAGES.productNotFound}</DetailMessage>;

  return (
    <StyledPage>
      <StyledBack>
        <BackToProducts />
      </StyledBack>
      {product && (
        <StyledProduct>
          <ProductImage src={product.image} alt={product.title} layout="detail" priority />
          <StyledInfo>
            <BadgeLink to={productsInCategoryPath(product.category)}>{product.category}</BadgeLink>
            <StyledTitle>{product.title}</StyledTitle>
            <StarRating rate={product.rating?.rate ?? DETAIL_DEFAULT_RATE} size={22} />
            <StyledPrice>{formatPrice(product.price)}</StyledPrice>
            <StyledDescription>{product.description}</StyledDescription>
          </StyledInfo>
        </StyledProduct>
      )}
      {product && <RelatedProducts product={product} />}
      {isFetching && <Spinner />}
    </StyledPage>
  );
}
