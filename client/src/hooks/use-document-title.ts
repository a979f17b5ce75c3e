import { useEffect } from 'react';
import { pageMeta, type PageMetaInput } from '@catalogue/shared/page-meta';

/**
 * Sets the tab title as the page changes in the browser, by the rule the server uses for the page's `<title>`
 * (shared/src/page-meta.ts), so the two always agree.
 */
export function useDocumentTitle(page: PageMetaInput): void {
  const { title } = pageMeta(page);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
