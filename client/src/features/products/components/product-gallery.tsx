import styled, { createGlobalStyle } from 'styled-components';
import { A11y, Autoplay, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import swiperCss from 'swiper/css?inline';
import swiperA11yCss from 'swiper/css/a11y?inline';
import swiperPaginationCss from 'swiper/css/pagination?inline';
import type { Product } from '@catalogue/shared/product';
import { useCarouselKeyboard } from '../../../hooks/use-carousel-keyboard';
import { useMediaQuery } from '../../../hooks/use-media-query';
import { formatPrice } from '../../../lib/format-price';
import { BREAKPOINT_SLIDES, carouselFirstPaint, SLIDES_PER_VIEW, SPACE_BETWEEN } from './carousel-layout';
import { cardSurface } from './card-surface';
import { ProductImage } from './product-image';
import { ProductLink } from './product-link';

/** The carousel of docs/product.md, "Home": a new slide every 2.5 s (its geometry: carousel-layout.ts). */
const GALLERY_AUTOPLAY_DELAY_MS = 2500;

/**
 * Swiper's styles travel with this component, i.e. only in the home page's chunk, and reach the page inside the
 * server's `<style>`: a stylesheet of their own would hold the first paint back by a request.
 */
const SwiperStyles = createGlobalStyle`
  ${swiperCss}
  ${swiperA11yCss}
  ${swiperPaginationCss}
`;

const StyledGallery = styled.div<{ $slideCount: number }>`
  --swiper-pagination-color: ${({ theme }) => theme.colors.accentStrong};
  --swiper-pagination-bullet-inactive-color: ${({ theme }) => theme.colors.textMuted};
  --swiper-pagination-bullet-inactive-opacity: 0.5;
  --swiper-pagination-bullet-size: 10px;
  --swiper-pagination-bullet-horizontal-gap: 0px;
  /* Swiper's 8 px less the 7 px the hit area adds below the dot, so the dots stay where they were. */
  --swiper-pagination-bottom: 1px;

  .swiper {
    padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.xs} 48px;
  }

  .swiper-slide {
    height: auto;
    transition: transform ${({ theme }) => theme.transition.smooth};
  }

  /* The centred slide stands out by size, not by fading the others (faded text would fail contrast). */
  .swiper-slide:not(.swiper-slide-active) {
    transform: scale(0.94);
  }

  /* A 10 px dot in a 24 px hit area (WCAG 2.2 target size): the padding is the target, not painted. */
  .swiper-pagination-bullet {
    box-sizing: content-box;
    padding: 7px;
    background-clip: content-box;
  }

  /* The ring sits inside the hit area, a little off the dot. */
  .swiper-pagination-bullet:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focusRing};
    outline-offset: -4px;
  }

  /* Last, to win over the rules above before Swiper starts (and for good without JavaScript). */
  ${({ $slideCount }) => carouselFirstPaint($slideCount)}
`;

const StyledSlideLink = styled(ProductLink)`
  ${cardSurface}
  gap: ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => theme.space.md};
  transition: box-shadow ${({ theme }) => theme.transition.quick};

  &:focus-visible {
    outline-offset: -3px;
  }
`;

const StyledSlideTitle = styled.h2`
  display: -webkit-box;
  overflow: hidden;
  font-size: 1.0625rem;
  font-weight: 600;
  -webkit-box-orient: vertical;
  -webkit-line-clamp: 2;
`;

const StyledSlidePrice = styled.span`
  margin-top: auto;
  font-size: 1.375rem;
  font-weight: 800;
  color: ${({ theme }) => theme.colors.accentStrong};
`;

/**
 * The home carousel. Autoplay pauses while the pointer is over it (Swiper's pauseOnMouseEnter) and while
 * keyboard focus is inside it, resumes when they leave, never stops for good on interaction, and never runs
 * for visitors who ask for reduced motion. Tab walks the products in list order (useCarouselKeyboard).
 */
export function ProductGallery({ products }: { products: readonly Product[] }) {
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const { onSwiper, onFocus, onBlur } = useCarouselKeyboard(products.length, !reducedMotion);
  const autoplay = reducedMotion ? false : { delay: GALLERY_AUTOPLAY_DELAY_MS, disableOnInteraction: false, pauseOnMouseEnter: true };

  return (
    <>
      <SwiperStyles />
      <StyledGallery $slideCount={products.length} onFocus={onFocus} onBlur={onBlur}>
        <Swiper
          // Autoplay is read at init only: a changed motion preference builds a fresh carousel.
          key={reducedMotion ? 'still' : 'moving'}
          modules={[A11y, Autoplay, Pagination]}
          onSwiper={onSwiper}
          // useCarouselKeyboard centres a focused slide, keeping its focus when the loop moves it.
          a11y={{ scrollOnFocus: false }}
          centeredSlides
          loop
          spaceBetween={SPACE_BETWEEN}
          slidesPerView={SLIDES_PER_VIEW}
          breakpoints={BREAKPOINT_SLIDES}
          autoplay={autoplay}
          pagination={{ clickable: true }}
        >
          {products.map((product, index) => (
            <SwiperSlide key={product.id}>
              <StyledSlideLink product={product}>
                {/* The first product is the centred slide when the carousel starts. */}
                <ProductImage src={product.image} alt={product.title} layout="carousel" priority={index === 0} />
                <StyledSlideTitle>{product.title}</StyledSlideTitle>
                <StyledSlidePrice>{formatPrice(product.price)}</StyledSlidePrice>
              </StyledSlideLink>
            </SwiperSlide>
          ))}
        </Swiper>
      </StyledGallery>
    </>
  );
}
