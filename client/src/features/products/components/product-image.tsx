import styled from 'styled-components';
import { IMAGE_WIDTHS, imageVariantUrl } from '@catalogue/shared/image-widths';
import { BREAKPOINTS } from '../../../styles/theme';

/** Space between the frame's edge and the photo. */
const INSET = '24px';

const StyledFrame = styled.div`
  /* Square whatever the photo: nothing inside is in flow, so the aspect ratio alone sets the height. */
  position: relative;
  aspect-ratio: 1 / 1;
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.imageWell};
  overflow: hidden;

  img {
    /* The box is the frame less its inset, set explicitly (an image would otherwise keep its own size), and the
       photo is scaled to fit inside it, centred: a portrait or landscape photo is shown whole. */
    position: absolute;
    top: ${INSET};
    left: ${INSET};
    width: calc(100% - 2 * ${INSET});
    height: calc(100% - 2 * ${INSET});
    object-fit: contain;
    object-position: center;
    /* Product photos have white backgrounds; multiply blends them into the well instead of a hard box. */
    mix-blend-mode: multiply;
    transition: transform ${({ theme }) => theme.transition.smooth};
  }
`;

/** Where a product photo is shown; each place draws it at its own width. */
export type ProductImageLayout = 'grid' | 'carousel' | 'detail';

const { sm, md, lg } = BREAKPOINTS;
/** The page's content column stops growing here (theme.layout.maxWidth). */
const MAX_PAGE = 1200;

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
const SIZES: Record<ProductImageLayout, string> = {
  grid: [
    `(min-width: ${MAX_PAGE}px) 204px`,
    `(min-width: ${lg}px) calc(25vw - 96px)`,
    `(min-width: ${md}px) calc(33.33vw - 98px)`,
    `(min-width: ${sm}px) calc(50vw - 102px)`,
    'calc(100vw - 98px)',
  ].join(', '),
  carousel: [
    `(min-width: ${MAX_PAGE}px) 286px`,
    `(min-width: ${lg}px) calc(33.33vw - 114px)`,
    `(min-width: ${sm}px) calc(50vw - 120px)`,
    'calc(83.33vw - 119px)',
  ].join(', '),
  detail: [
    `(min-width: ${MAX_PAGE}px) 420px`,
    `(min-width: ${md}px) calc(45.45vw - 125px)`,
    `(min-width: ${sm}px) calc(100vw - 130px)`,
    'calc(100vw - 114px)',
  ].join(', '),
};

/** What browsers that ignore `srcset` load: wide enough for a card on a 2× phone. */
const FALLBACK_WIDTH = 640;

interface ProductImageProps {
  /** The product's image route (`/api/products/{id}/image`); its resized variants are offered by width. */
  src: string;
  alt: string;
  layout: ProductImageLayout;
  /**
   * The page's largest contentful paint candidate (the first cards in view, the centred slide, the detail
   * photo): fetched at once and before other images. Every other photo loads lazily, as it nears the viewport.
   */
  priority?: boolean;
  className?: string;
}

/** A product photo, whole and centred in a square frame that holds its place while it loads. */
export function ProductImage({ src, alt, layout, priority = false, className }: ProductImageProps) {
  return (
    <StyledFrame className={className}>
      <img
        src={imageVariantUrl(src, FALLBACK_WIDTH)}
        srcSet={IMAGE_WIDTHS.map((width) => `${imageVariantUrl(src, width)} ${width}w`).join(', ')}
        sizes={SIZES[layout]}
        alt={alt}
        // The frame is square; the photo keeps its own ratio inside it (object-fit), whatever it turns out to be.
        width={400}
        height={400}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : undefined}
        decoding={priority ? undefined : 'async'}
      />
    </StyledFrame>
  );
}
