import styled from 'styled-components';
import { useDocumentTitle } from '../hooks/use-document-title';
import { StyledButton } from './button';
import { StyledLead, StyledPage, StyledTitle } from './page';

const StyledBody = styled.div`
  display: grid;
  justify-items: start;
  gap: ${({ theme }) => theme.space.lg};
`;

/** The root error boundary: something broke while rendering (or a page's code failed to download). */
export function ErrorPage() {
  useDocumentTitle({ kind: 'error' });
  return (
    <StyledPage>
      <StyledBody>
        <StyledTitle>Something went wrong</StyledTitle>
        <StyledLead>Sorry, this page ran into a problem. Reloading usually fixes it.</StyledLead>
        <StyledButton type="button" onClick={() => window.location.reload()}>
          Reload page
        </StyledButton>
      </StyledBody>
    </StyledPage>
  );
}
