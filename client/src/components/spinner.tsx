import styled, { keyframes } from 'styled-components';

const spin = keyframes`
  to { transform: rotate(360deg); }
`;

const StyledBackdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 1000;
  display: grid;
  place-items: center;
  background: ${({ theme }) => theme.colors.spinnerBackdrop};
  backdrop-filter: blur(2px);
`;

const StyledRing = styled.span`
  width: 56px;
  height: 56px;
  border-radius: 50%;
  border: 5px solid transparent;
  border-top-color: ${({ theme }) => theme.colors.brand};
  border-right-color: ${({ theme }) => theme.colors.brand};
  animation: ${spin} 0.8s linear infinite;

  @media (prefers-reduced-motion: reduce) {
    animation-duration: 2.4s;
  }
`;

/** The full-screen loading state of every data page: covers the viewport, orange-red, announced as 'Loading'. */
export function Spinner() {
  return (
    <StyledBackdrop role="status" aria-label="Loading">
      <StyledRing />
    </StyledBackdrop>
  );
}
