import { useRef, type FocusEvent } from 'react';
import type { Swiper as SwiperInstance } from 'swiper';

interface CarouselKeyboard {
  /** For Swiper's `onSwiper`: the instance the handlers steer. */
  onSwiper: (swiper: SwiperInstance) => void;
  /** For the element around the carousel. */
  onFocus: (event: FocusEvent<HTMLElement>) => void;
  onBlur: (event: FocusEvent<HTMLElement>) => void;
}

/**
 * The keyboard behaviour of a looping, autoplaying Swiper carousel of `slideCount` slides, each holding one link.
 *
 * Autoplay stops while keyboard focus is inside (so a focused slide does not slide away) and starts again when
 * focus leaves; a click or tap that focuses a control does not stop it. With `autoplay` false (reduced motion)
 * it is never started.
 *
 * Tab walk: Tab enters at the first slide (Shift+Tab at the last) and moves through them in list order, each
 * brought to the centre, then leaves after the last, where Swiper's loop releases focus. The loop keeps the
 * slides in a rotated DOM order, so without the redirect Tab would enter part-way through the list and leave
 * before reaching the slides that sit before the entry point.
 */
export function useCarouselKeyboard(slideCount: number, autoplay: boolean): CarouselKeyboard {
  const swiperRef = useRef<SwiperInstance | null>(null);
  const keyboardFocusInside = useRef(false);
  // Set while a slide change moves slides in the DOM: a moved element loses focus, which is put back, and
  // the focus events that causes are not the visitor's.
  const movingSlides = useRef(false);

  function setKeyboardFocusInside(inside: boolean) {
    const swiper = swiperRef.current;
    if (!swiper || !autoplay || inside === keyboardFocusInside.current) return;
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

  function onFocus(event: FocusEvent<HTMLElement>) {
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
      const entry = String(backwards ? slideCount - 1 : 0);
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

  function onBlur(event: FocusEvent<HTMLElement>) {
    if (!movingSlides.current && !event.currentTarget.contains(event.relatedTarget)) setKeyboardFocusInside(false);
  }

  return {
    onSwiper: (swiper) => {
      swiperRef.current = swiper;
    },
    onFocus,
    onBlur,
  };
}
