import { BREAKPOINTS, PAGE_MAX_WIDTH } from './breakpoints.js';
import { IMAGE_WIDTHS, imageVariantUrl } from './image-widths.js';

/**
 * How a product photo is offered to the browser: one rule for the pages' `<img>` (client ProductImage) and the
 * server's `<link rel="preload" as="image">` of the page's largest paint, which must name the very same
 * `srcset` and `sizes`, or the browser would download the photo twice.
 */

/** Where a product photo is shown; each place draws it at its own width. */
export type ProductPhotoLayout = 'grid' | 'carousel' | 'detail';

const { sm: SM, md: MD, lg: LG } = BREAKPOINTS;
const MAX_PAGE = PAGE_MAX_WIDTH;

/**
 * How wide the photo is drawn, per layout and viewport, so the browser picks the smallest variant that is sharp
 * at its pixel density. Worked out from the page column (16 px padding each side, 24 px from 640 px, 1,200 px at
 * most) and what sits around the photo (the frame's 24 px inset each side, the card's padding and 1 px border):
 *
 * - grid: 1 / 2 / 3 / 4 columns at 0 / 640 / 768 / 1,024 px, 24 px apart, cards with 8 px padding;
 * - carousel: 1.2 / 2 / 3 slides per view at 0 / 640 / 1,024 px, 20 px apart, slides with 16 px padding, inside
 *   the carousel's 4 px side padding;
 * - detail: the article (16 px padding, 40 px from 768 px) is one column, then 5 of 11 parts beside the text,
 *   40 px apart.
 *
 * The browser suite measures each against the drawn photo at 375 and 1,280 px (e2e/product-photos.spec.ts).
 */
const PHOTO_SIZES: Record<ProductPhotoLayout, string> = {
  grid: [
    `(min-width: ${MAX_PAGE}px) 204px`,
    `(min-width: ${LG}px) calc(25vw - 96px)`,
    `(min-width: ${MD}px) calc(33.33vw - 98px)`,
    `(min-width: ${SM}px) calc(50vw - 102px)`,
    'calc(100vw - 98px)',
  ].join(', '),
  carousel: [
    `(min-width: ${MAX_PAGE}px) 286px`,
    `(min-width: ${LG}px) calc(33.33vw - 114px)`,
    `(min-width: ${SM}px) calc(50vw - 120px)`,
    'calc(83.33vw - 119px)',
  ].join(', '),
  detail: [
    `(min-width: ${MAX_PAGE}px) 420px`,
    `(min-width: ${MD}px) calc(45.45vw - 125px)`,
    `(min-width: ${SM}px) calc(100vw - 130px)`,
    'calc(100vw - 114px)',
  ].join(', '),
};

/** What browsers that ignore `srcset` load: wide enough for a card on a 2× phone. */
const FALLBACK_WIDTH = 640;

/** The `src`, `srcset` and `sizes` of a photo whose image route is `src` (`/api/products/{id}/image`). */
export function productPhotoSrcset(src: string, layout: ProductPhotoLayout): { src: string; srcSet: string; sizes: string } {
  return {
    src: imageVariantUrl(src, FALLBACK_WIDTH),
    srcSet: IMAGE_WIDTHS.map((width) => `${imageVariantUrl(src, width)} ${width}w`).join(', '),
    sizes: PHOTO_SIZES[layout],
  };
}
