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

/**
 * The star outline as a polygon in percent of its square (a 24-unit star with straight edges): one clipped
 * element draws a star, where an SVG per star and a second, clipped one for the fill cost six elements a star
 * in every card of the grid.
 */
const STAR_POLYGON =
  '50% 10.417%, 62.25% 35.833%, 90% 39.583%, 69.75% 58.833%, 74.75% 86.333%, 50% 72.917%, 25.25% 86.333%, 30.25% 58.833%, 10% 39.583%, 37.75% 35.833%';

const StyledRating = styled.span<{ $size: number }>`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  font-size: ${({ $size }) => ($size > 18 ? '1rem' : '0.875rem')};
  font-weight: 600;
  color: ${({ theme }) => theme.colors.textMuted};

  [data-star] {
    display: inline-block;
    width: ${({ $size }) => $size}px;
    height: ${({ $size }) => $size}px;
    clip-path: polygon(${STAR_POLYGON});
    background: ${({ theme }) => theme.colors.starEmpty};
    /* Drawn by background colour, which forced-colours mode would otherwise repaint as the page background. */
    forced-color-adjust: none;
  }

  [data-star='full'] {
    background: ${({ theme }) => theme.colors.star};
  }

  [data-star='half'] {
    background: linear-gradient(to right, ${({ theme }) => `${theme.colors.star} 50%, ${theme.colors.starEmpty} 50%`});
  }
`;

const StyledStars = styled.span`
  display: inline-flex;
  gap: 2px;
`;

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
          <span key={index} data-star={fill} />
        ))}
      </StyledStars>
      {showValue && <span>{value}</span>}
    </StyledRating>
  );
}
