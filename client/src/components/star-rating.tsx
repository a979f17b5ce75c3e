import styled from 'styled-components';

const STAR_COUNT = 5;

type StarFill = 'full' | 'half' | 'empty';

/**
 * The rounding rule: the rate is rounded to the nearest half star, then clamped to 0–5.
 * 3.9 → 4 full; 3.7 → 3 full + 1 half; 3.74 → 3.5; 3.75 → 4; 0.2 → 0 stars.
 */
export function starFills(rate: number): StarFill[] {
  const halves = Math.min(Math.max(Math.round(rate * 2), 0), STAR_COUNT * 2);
  return Array.from({ length: STAR_COUNT }, (_, index) => {
    const left = halves - index * 2;
    return left >= 2 ? 'full' : left === 1 ? 'half' : 'empty';
  });
}

const StyledRating = styled.span<{ $size: number }>`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  font-size: ${({ $size }) => ($size > 18 ? '1rem' : '0.875rem')};
  font-weight: 600;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const StyledStars = styled.span`
  display: inline-flex;
  gap: 2px;
`;

const StyledStar = styled.span<{ $size: number }>`
  position: relative;
  display: inline-block;
  width: ${({ $size }) => $size}px;
  height: ${({ $size }) => $size}px;
  color: ${({ theme }) => theme.colors.starEmpty};

  svg {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
  }
`;

const StyledFill = styled.span<{ $fill: StarFill }>`
  position: absolute;
  inset: 0;
  overflow: hidden;
  width: ${({ $fill }) => ($fill === 'full' ? '100%' : $fill === 'half' ? '50%' : '0')};
  color: ${({ theme }) => theme.colors.star};

  svg {
    width: ${({ $fill }) => ($fill === 'half' ? '200%' : '100%')};
  }
`;

function StarShape() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M12 2.5l2.94 6.1 6.66.9-4.86 4.62 1.2 6.6L12 17.5l-5.94 3.22 1.2-6.6L2.4 9.5l6.66-.9L12 2.5z" />
    </svg>
  );
}

interface StarRatingProps {
  rate: number;
  /** Shows the rate as a number beside the stars. */
  showValue?: boolean;
  size?: number;
}

/** Five stars (full, half, empty) announced as one image: 'Rated 3.9 out of 5'. */
export function StarRating({ rate, showValue = true, size = 18 }: StarRatingProps) {
  const value = rate.toFixed(1);
  return (
    <StyledRating role="img" aria-label={`Rated ${value} out of ${STAR_COUNT}`} $size={size}>
      <StyledStars>
        {starFills(rate).map((fill, index) => (
          <StyledStar key={index} data-star={fill} $size={size}>
            <StarShape />
            <StyledFill $fill={fill}>
              <StarShape />
            </StyledFill>
          </StyledStar>
        ))}
      </StyledStars>
      {showValue && <span>{value}</span>}
    </StyledRating>
  );
}
