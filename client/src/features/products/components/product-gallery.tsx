import { useRef, type FocusEvent } from 'react';
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
import { cardSurface } from './card-surface';
import { ProductImage } from './product-image';

/** The carousel of docs/product.md, "Home": 1.2 / 2 / 3 slides at 0 / 640 / 1024 px, 20 px apart, a new slide every 2.5 s. */
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
`;

const StyledSlideLink = styled(Link)`
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
 * keyboard focus is inside it (so a focused slide does not slide away), resumes when they leave, never stops
 * for good on interaction, and never runs for visitors who ask for reduced motion.
 *
 * Keyboard walk: Tab enters at the first product (Shift+Tab at the last) and moves through them in list
 * order, each brought to the centre, then leaves after the last, where Swiper's loop releases focus. The
 * loop keeps the slides in a rotated DOM order, so without the redirect Tab would enter part-way through the
 * list and leave before reaching the products that sit before the entry point.
 */
export function ProductGallery({ products }: { products: readonly Product[] }) {
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const swiperRef = useRef<SwiperInstance | null>(null);
  const keyboardFocusInside = useRef(false);
  // Set while a slide change moves slides in the DOM: a moved element loses focus, which is put back, and
  // the focus events that causes are not the visitor's.
  const movingSlides = useRef(false);
  const autoplay = reducedMotion ? false : { delay: GALLERY_AUTOPLAY_DELAY_MS, disableOnInteraction: false, pauseOnMouseEnter: true };

  function setKeyboardFocusInside(inside: boolean) {
    const swiper = swiperRef.current;
    if (!swiper || reducedMotion || inside === keyboardFocusInside.current) return;
    keyboardFocusInside.current = inside;
    if (inside) {
      swiper.autoplay.stop();
      return;
    }
    swiper.autoplay.start();
    // With the pointer still over the carousel, hand it back paused to Swiper's pauseOnMouseEnter, whose
    // pointerleave resumes it.
    if (swiper.el.matches(':hover')) swiper.autoplay.pause();
  }

  function centreFocusedSlide(swiper: SwiperInstance, slide: HTMLElement, link: HTMLElement) {
    // Focus scrolled the clipped container to show the link; Swiper positions slides by transform instead.
    swiper.el.scrollLeft = 0;
    movingSlides.current = true;
    try {
      swiper.slideToLoop(Number(slide.dataset.swiperSlideIndex), 0);
      if (document.activeElement !== link) link.focus({ preventScroll: true });
    } finally {
      movingSlides.current = false;
    }
  }

  function handleFocus(event: FocusEvent<HTMLDivElement>) {
    if (movingSlides.current) return;
    const target = event.target;
    // A click or tap focuses too (a pagination dot, a slide link): only keyboard focus pauses autoplay.
    const keyboard = target.matches(':focus-visible');
    setKeyboardFocusInside(keyboard);
    const swiper = swiperRef.current;
    const slide = target.closest<HTMLElement>('.swiper-slide');
    if (!keyboard || !swiper || !slide) return;

    const from = event.relatedTarget;
    if (!(from instanceof Node && swiper.wrapperEl.contains(from))) {
      const backwards = from instanceof Node && Boolean(target.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING);
      const entry = String(backwards ? products.length - 1 : 0);
      if (slide.dataset.swiperSlideIndex !== entry) {
        // Focusing it runs this handler again, which centres it.
        swiper.slides
          .find((candidate) => candidate.dataset.swiperSlideIndex === entry)
          ?.querySelector('a')
          ?.focus();
        return;
      }
    }
    centreFocusedSlide(swiper, slide, target);
  }

  return (
    <StyledGallery
      onFocus={handleFocus}
      onBlur={(event) => {
        if (!movingSlides.current && !event.currentTarget.contains(event.relatedTarget)) setKeyboardFocusInside(false);
      }}
    >
      <Swiper
        // Autoplay is read at init only: a changed motion preference builds a fresh carousel.
        key={reducedMotion ? 'still' : 'moving'}
        modules={[A11y, Autoplay, Pagination]}
        onSwiper={(swiper) => {
          swiperRef.current = swiper;
        }}
        // The focus handler above centres a focused slide, keeping its focus when the loop moves it.
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
