import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
}

/** A page rendered on the server is at its top: the bar starts roomy, and hydration agrees with that HTML. */
const atTheTop = () => false;

/** True once the page is scrolled more than `threshold` px; re-renders only when that answer flips. */
export function useScrolledPast(threshold: number): boolean {
  return useSyncExternalStore(subscribe, () => window.scrollY > threshold, atTheTop);
}
