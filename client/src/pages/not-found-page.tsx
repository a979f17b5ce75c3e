import styled from 'styled-components';
import { PAGE_MESSAGES } from '@catalogue/shared/messages';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { StyledButtonLink } from '../components/button';
import { StyledLead, StyledPage, StyledTitle } from '../components/page';
import { useDocumentTitle } from '../hooks/use-document-title';

const StyledBody = styled.div`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space.md};
  padding-top: ${({ theme }) => theme.space.xl};
  text-align: center;
`;

const StyledCode = styled.p`
  font-size: ${({ theme }) => theme.font.sizeHero};
  font-weight: 900;
  line-height: 1;
  letter-spacing: -0.04em;
  color: ${({ theme }) => theme.colors.accentStrong};
`;

const StyledActions = styled.div`
  margin-top: ${({ theme }) => theme.space.md};
`;

export function NotFoundPage() {
  useDocumentTitle({ kind: 'not-found' });
  return (
    <StyledPage>
      <StyledBody>
        <StyledCode>404</StyledCode>
        <StyledTitle>{PAGE_MESSAGES.pageNotFound}</StyledTitle>
        <StyledLead>{PAGE_MESSAGES.pageNotFoundDetail}</StyledLead>
        <StyledActions>
          <StyledButtonLink to={PAGE_PATHS.home}>Go Back Home</StyledButtonLink>
        </StyledActions>
      </StyledBody>
    </StyledPage>
  );
}
