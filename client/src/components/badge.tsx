import type { ReactNode } from 'react';
import styled from 'styled-components';

const StyledBadge = styled.span`
  align-self: flex-start;
  justify-self: start;
  padding: 2px ${({ theme }) => theme.space.sm};
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.colors.badgeBackground};
  color: ${({ theme }) => theme.colors.badgeText};
  font-size: 0.75rem;
  font-weight: 700;
  letter-spacing: 0.04em;
  text-transform: uppercase;
`;

/** A small uppercase pill that labels what follows it: a product's category on its card and its page. */
export function Badge({ children }: { children: ReactNode }) {
  return <StyledBadge>{children}</StyledBadge>;
}
