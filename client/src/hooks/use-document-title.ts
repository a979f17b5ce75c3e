import { useEffect } from 'react';

/** One suffix for every page, so tabs and history entries read consistently. */
const TITLE_SUFFIX = ' · Catalogue';

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title}${TITLE_SUFFIX}`;
  }, [title]);
}
