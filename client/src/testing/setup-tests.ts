import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Pages are lazy chunks that Vite transforms on first use, and tests talk to a real server: on a busy CI
// machine the first render of a page can take seconds. Generous limits keep the tests honest but not flaky.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

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
