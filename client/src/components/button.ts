import { AppLink } from './app-link';
import styled, { css } from 'styled-components';

/** The solid accent call to action ('See More', 'Try again', 'Go Back Home'), as a link or a button. */
const solid = css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space.sm};
  min-height: 48px;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.lg}`};
  border: 0;
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.colors.accentStrong};
  color: ${({ theme }) => theme.colors.onAccent};
  font-weight: 700;
  text-decoration: none;
  cursor: pointer;
  transition:
    background-color ${({ theme }) => theme.transition.quick},
    transform ${({ theme }) => theme.transition.quick};

  &:hover {
    background: ${({ theme }) => theme.colors.accentHover};
  }

  &:active {
    transform: translateY(1px);
  }
`;

export const StyledButtonLink = styled(AppLink)`
  ${solid}
`;

export const StyledButton = styled.button`
  ${solid}
`;

/** A quiet text link with an arrow, e.g. 'Back to Products'. */
export const StyledTextLink = styled(AppLink)`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  font-weight: 600;
  color: ${({ theme }) => theme.colors.accentStrong};
  text-decoration: none;
  border-radius: ${({ theme }) => theme.radius.sm};

  &:hover {
    text-decoration: underline;
    text-underline-offset: 4px;
  }
`;
