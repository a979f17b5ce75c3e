import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// jsdom has no layout engine: media queries never match (the narrow, hamburger layout) and scrolling is a no-op.
window.matchMedia = (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }) satisfies MediaQueryList;
window.scrollTo = () => {};

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
});

afterEach(() => cleanup());
