import { useSyncExternalStore } from 'react';

const nothingToWatch = () => () => {};

/**
 * False on the server and while the browser hydrates its HTML, true once the app is in control (React re-renders
 * right after hydration with the browser's value, so the two never mismatch). A control that works only through the
 * app is announced as working only then (docs/pages.md, "Before the app").
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  );
}
