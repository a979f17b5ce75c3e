import { AppLink } from './app-link';
import styled from 'styled-components';

/**
 * A small uppercase pill that labels what follows it, a product's category on its card and its page, and links to
 * the list of that category.
 */
export const BadgeLink = styled(AppLink)`
  align-self: flex-start;
  justify-self: start;
  padding: 2px ${({ theme }) => theme.space.sm};
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.colors.badgeBackground};
  color: ${({ theme }) => theme.colors.badgeText};
  font-size: 0.75rem;
  font-weight: 700;
  letter-spacing: 0.04em;
  text-decoration: none;
  text-transform: uppercase;
  text-underline-offset: 2px;

  &:hover {
    text-decoration: underline;
  }
`;
