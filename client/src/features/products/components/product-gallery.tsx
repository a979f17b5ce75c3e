import { useRef } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { Swiper as SwiperInstance } from 'swiper';
import { A11y, Autoplay, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
// Swiper's styles travel with this component, i.e. only in the home page's chunk.
import 'swiper/css';
import 'swiper/css/a11y';
import 'swiper/css/pagination';
import type { Product } from '@catalogue/shared/product';
import { productDetailsPath } from '@catalogue/shared/routes';
import { useMediaQuery } from '../../../hooks/use-media-query';
import { formatPrice } from '../../../lib/format-price';
import { BREAKPOINTS } from '../../../styles/theme';
import { ProductImage } from './product-image';

/** The spec's carousel: 1.2 / 2 / 3 slides at 0 / 640 / 1024 px, 20 px apart, a new slide every 2.5 s. */
const GALLERY_AUTOPLAY_DELAY_MS = 2500;
const SPACE_BETWEEN = 20;
const SLIDES_PER_VIEW = 1.2;
const BREAKPOINT_SLIDES = {
  [BREAKPOINTS.sm]: { slidesPerView: 2 },
  [BREAKPOINTS.lg]: { slidesPerView: 3 },
};

const StyledGallery = styled.div`
  --swiper-pagination-color: ${({ theme }) => theme.colors.accentStrong};
  --swiper-pagination-bullet-inactive-color: ${({ theme }) => theme.colors.textMuted};
  --swiper-pagination-bullet-inactive-opacity: 0.5;
  --swiper-pagination-bullet-size: 10px;
  --swiper-pagination-bullet-horizontal-gap: 6px;

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

  .swiper-pagination-bullet:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focusRing};
    outline-offset: 3px;
  }
`;

const StyledSlideLink = styled(Link)`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.md};
  height: 100%;
  padding: ${({ theme }) => theme.space.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.card};
  color: ${({ theme }) => theme.colors.text};
  text-decoration: none;
  transition: box-shadow ${({ theme }) => theme.transition.quick};

  &:hover {
    box-shadow: ${({ theme }) => theme.shadow.cardHover};
  }

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
 * keyboard focus is inside it (so a focused slide does not slide away), and never runs for visitors who ask
 * for reduced motion.
 */
export function ProductGallery({ products }: { products: readonly Product[] }) {
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const swiperRef = useRef<SwiperInstance | null>(null);
  const autoplay = reducedMotion
    ? false
    : { delay: GALLERY_AUTOPLAY_DELAY_MS, disableOnInteraction: false, pauseOnMouseEnter: true };

  return (
    <StyledGallery
      onFocus={() => {
        if (!reducedMotion) swiperRef.current?.autoplay.stop();
      }}
      onBlur={(event) => {
        if (!reducedMotion && !event.currentTarget.contains(event.relatedTarget)) swiperRef.current?.autoplay.start();
      }}
    >
      <Swiper
        // Autoplay is read at init only: a changed motion preference builds a fresh carousel.
        key={reducedMotion ? 'still' : 'moving'}
        modules={[A11y, Autoplay, Pagination]}
        onSwiper={(swiper) => {
          swiperRef.current = swiper;
        }}
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
            <StyledSlideLink to={productDetailsPath(product.id)}>
              <ProductImage src={product.image} alt={product.title} eager={index < 3} />
              <StyledSlideTitle>{product.title}</StyledSlideTitle>
              <StyledSlidePrice>{formatPrice(product.price)}</StyledSlidePrice>
            </StyledSlideLink>
          </SwiperSlide>
        ))}
      </Swiper>
    </StyledGallery>
  );
}
