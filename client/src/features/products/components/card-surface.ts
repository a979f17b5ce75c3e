import { css } from 'styled-components';

/** The raised, rounded surface shared by the grid's product cards and the gallery's slides: one look for both. */
export const cardSurface = css`
  display: flex;
  flex-direction: column;
  height: 100%;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.card};
  color: ${({ theme }) => theme.colors.text};
  text-decoration: none;

  &:hover {
    box-shadow: ${({ theme }) => theme.shadow.cardHover};
  }
`;
