import styled from 'styled-components';
import { type ProductPhotoLayout, productPhotoSrcset } from '@catalogue/shared/product-photo';

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

interface ProductImageProps {
  /** The product's image route (`/api/products/{id}/image`); its resized variants are offered by width. */
  src: string;
  alt: string;
  /** Where the photo is shown, which sets the width it is drawn at (`sizes`: shared/src/product-photo.ts). */
  layout: ProductPhotoLayout;
  /**
   * The page's largest contentful paint candidate (the first cards in view, the centred slide, the detail
   * photo): fetched at once and before other images. Every other photo loads lazily, as it nears the viewport.
   */
  priority?: boolean;
  className?: string;
}

/** A product photo, whole and centred in a square frame that holds its place while it loads. */
export function ProductImage({ src, alt, layout, priority = false, className }: ProductImageProps) {
  // The same srcset the server preloads for the page's largest paint, so the photo is fetched once.
  const photo = productPhotoSrcset(src, layout);
  return (
    <StyledFrame className={className}>
      <img
        src={photo.src}
        srcSet={photo.srcSet}
        sizes={photo.sizes}
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
