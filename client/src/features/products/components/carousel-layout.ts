import { css } from 'styled-components';
import { BREAKPOINTS } from '../../../styles/theme';

/**
 * The home carousel's geometry (docs/product.md, "Home"): 1.2 / 2 / 3 slides per view at 0 / 640 / 1,024 px,
 * 20 px apart, centred on the first product, looping. Swiper is given these numbers, and the server's HTML is laid
 * out with them in CSS before Swiper runs, so that Swiper's start moves nothing on screen (docs/performance.md, "Layout shift and the largest paint").
 */
export const SPACE_BETWEEN = 20;
export const SLIDES_PER_VIEW = 1.2;
export const BREAKPOINT_SLIDES = {
  [BREAKPOINTS.sm]: { slidesPerView: 2 },
  [BREAKPOINTS.lg]: { slidesPerView: 3 },
} as const;

/**
 * How many of the last slides Swiper's loop moves in front of the first one when it starts (swiper-core's
 * `loopFix`, Swiper 14), so that the first product can sit in the centre with neighbours on both sides. For
 * centred slides Swiper rounds every slides-per-view here (1.2, 2, 3) up to the next odd whole number, 3, and
 * keeps `ceil(3 / 2)` = 2 slides in reserve on each side, fewer when there are not enough slides for that; it
 * moves the reserve plus the one slide left of centre. The browser suite checks the result against Swiper itself
 * (e2e/layout-shift.spec.ts, e2e/home.spec.ts).
 */
export function slidesLoopedBefore(slideCount: number): number {
  const perView = 3;
  const reserve = Math.ceil(perView / 2);
  const fitted = reserve > (slideCount - perView) / 2 ? Math.max(1, Math.floor((slideCount - perView - 1) / 2)) : reserve;
  return fitted + 1;
}

/** One slide's width for `perView` slides in the carousel's width (100% of the slide row). */
// (perView − 1) gaps, written without subtracting in JavaScript, where 1.2 − 1 is 0.19999999999999996.
const slideWidth = (perView: number) => `((100% - ${perView} * ${SPACE_BETWEEN}px + ${SPACE_BETWEEN}px) / ${perView})`;

/** From one slide's start to the next one's: its width and the gap after it. */
const slidePitch = (perView: number) => `(${slideWidth(perView)} + ${SPACE_BETWEEN}px)`;

/** The slide width and gap for `perView` slides: the same with JavaScript (until Swiper sets its own) and without. */
const slideSize = (perView: number) => css`
  .swiper:not(.swiper-initialized) .swiper-slide {
    width: calc${slideWidth(perView)};
    margin-right: ${SPACE_BETWEEN}px;
  }
`;

/**
 * Swiper's layout for `centeredSlides`, drawn without moving anything in the row: the row is shifted so that the first
 * product, which stays first, is centred, and the last `looped` slides (the ones from `firstLooped` on) are drawn
 * `slideCount` places to the left of where they sit (relative positioning: the others keep their places), i.e. just
 * in front of the first product, where Swiper will move them. Both rules count slides from the front only, so they
 * hold while the page is still arriving: a slide parsed later never moves one already shown. (Chromium matches no
 * `:nth-last-child` until the row's end tag is parsed: with `order` on the last slides, a frame drawn before then
 * showed the row one or two places off, and it jumped when the row ended.)
 */
const centredOnFirst = (perView: number, slideCount: number, firstLooped: number) => css`
  .swiper:not(.swiper-initialized) .swiper-wrapper {
    transform: translateX(calc((100% - ${slideWidth(perView)}) / 2));
  }
  .swiper:not(.swiper-initialized) .swiper-slide:nth-child(n + ${firstLooped}) {
    position: relative;
    left: calc(${-slideCount} * ${slidePitch(perView)});
  }
`;

const { sm: SM, lg: LG } = BREAKPOINTS;
const PER_VIEW_SM = BREAKPOINT_SLIDES[SM].slidesPerView;
const PER_VIEW_LG = BREAKPOINT_SLIDES[LG].slidesPerView;

/**
 * The carousel's first paint, both ways it can go. With JavaScript, the row as Swiper will lay it out: the same
 * slide width and gap per breakpoint, the last `looped` slides drawn in front of the first product (where Swiper will
 * move them in the DOM), the row shifted so the first product is centred, and that product, the active slide, not
 * scaled down; all of it yields to Swiper's inline styles and classes once it has set `.swiper-initialized`. Without
 * JavaScript (`scripting: none`), a row of the same slides at the same width that scrolls sideways and snaps to
 * each slide, from the first product on.
 */
export function carouselFirstPaint(slideCount: number) {
  const firstLooped = slideCount - slidesLoopedBefore(slideCount) + 1;
  return css`
    ${slideSize(SLIDES_PER_VIEW)}
    @media (min-width: ${SM}px) {
      ${slideSize(PER_VIEW_SM)}
    }
    @media (min-width: ${LG}px) {
      ${slideSize(PER_VIEW_LG)}
    }

    @media (scripting: enabled) {
      ${centredOnFirst(SLIDES_PER_VIEW, slideCount, firstLooped)}
      .swiper:not(.swiper-initialized) .swiper-slide:first-child {
        transform: none;
      }
    }
    @media (scripting: enabled) and (min-width: ${SM}px) {
      ${centredOnFirst(PER_VIEW_SM, slideCount, firstLooped)}
    }
    @media (scripting: enabled) and (min-width: ${LG}px) {
      ${centredOnFirst(PER_VIEW_LG, slideCount, firstLooped)}
    }

    @media (scripting: none) {
      .swiper .swiper-wrapper {
        overflow-x: auto;
        overscroll-behavior-x: contain;
        scroll-snap-type: x mandatory;
      }
      .swiper .swiper-slide {
        scroll-snap-align: start;
        transform: none;
      }
      .swiper .swiper-slide:last-child {
        margin-right: 0;
      }
    }
  `;
}
