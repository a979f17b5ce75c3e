import { useCallback, useSyncExternalStore } from 'react';

/**
 * The server knows no viewport: its HTML is rendered as if no query matched, and the browser re-renders with
 * the real value right after hydration (useSyncExternalStore's server snapshot), so the two never mismatch.
 */
const noViewport = () => false;

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, noViewport);
}
