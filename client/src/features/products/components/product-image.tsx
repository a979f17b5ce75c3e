import styled from 'styled-components';

const StyledWell = styled.div`
  display: grid;
  place-items: center;
  aspect-ratio: 1 / 1;
  padding: ${({ theme }) => theme.space.lg};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.imageWell};
  overflow: hidden;

  img {
    width: 100%;
    height: 100%;
    object-fit: contain;
    /* Product photos have white backgrounds; multiply blends them into the well instead of a hard box. */
    mix-blend-mode: multiply;
    transition: transform ${({ theme }) => theme.transition.smooth};
  }
`;

interface ProductImageProps {
  src: string;
  alt: string;
  /** Above the fold: load at once rather than lazily. */
  eager?: boolean;
  className?: string;
}

/** A square, reserved box for a product photo, so nothing shifts while it loads. */
export function ProductImage({ src, alt, eager = false, className }: ProductImageProps) {
  return (
    <StyledWell className={className}>
      <img src={src} alt={alt} width={400} height={400} loading={eager ? 'eager' : 'lazy'} decoding="async" />
    </StyledWell>
  );
}
