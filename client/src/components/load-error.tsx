import styled from 'styled-components';
import { StyledButton } from './button';

const StyledBox = styled.div`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => theme.space.xl};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};
  text-align: center;
`;

/** Shown when the catalogue could not load after its retries, instead of a spinner that never ends. */
export function LoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <StyledBox role="alert">
      <p>We couldn’t load the products. Please check your connection and try again.</p>
      <StyledButton type="button" onClick={onRetry}>
        Try again
      </StyledButton>
    </StyledBox>
  );
}
