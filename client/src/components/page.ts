import styled from 'styled-components';
import { media } from '../styles/theme';

/** The content column every page sits in. */
export const StyledPage = styled.div`
  max-width: ${({ theme }) => theme.layout.maxWidth};
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.xl} ${theme.space.md} ${theme.space.xxl}`};

  ${media.sm} {
    padding-left: ${({ theme }) => theme.space.lg};
    padding-right: ${({ theme }) => theme.space.lg};
  }
`;

export const StyledPageHeader = styled.header`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  margin-bottom: ${({ theme }) => theme.space.xl};
`;

export const StyledTitle = styled.h1`
  font-size: ${({ theme }) => theme.font.sizeXl};
  font-weight: 800;
`;

export const StyledLead = styled.p`
  max-width: 60ch;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 1.0625rem;
`;
