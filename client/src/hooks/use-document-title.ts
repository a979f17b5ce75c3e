import { useEffect } from 'react';
import { type PageMetaInput, pageTitle } from '@catalogue/shared/page-meta';

/**
 * Sets the tab title as the page changes in the browser, by the rule the server uses for the page's `<title>`
 * (shared/src/page-meta.ts), so the two always agree.
 */
export function useDocumentTitle(page: PageMetaInput): void {
  const title = pageTitle(page);
  useEffect(() => {
    // On the page the server sent, the title is right already: written again, its text would be replaced for nothing.
    if (document.title !== title) document.title = title;
  }, [title]);
}
