import { createGlobalStyle, css } from 'styled-components';
import { THEME_SWITCHING_ATTRIBUTE } from '../lib/theme-storage';
import { themeVariables } from './theme';

/** A focus ring shared by every interactive element, shown for keyboard users only. */
export const focusRing = css`
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focusRing};
    outline-offset: 3px;
  }
`;

/** Hides content visually while keeping it for screen readers (labels, live counts). */
export const visuallyHidden = css`
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
`;

export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }

  ${themeVariables}

  html {
    /* On <html> too, so the page's colour is there from the first paint, before the body is laid out. */
    background: ${({ theme }) => theme.colors.background};
    -webkit-text-size-adjust: 100%;
  }

  body {
    margin: 0;
    min-height: 100vh;
    font-family: ${({ theme }) => theme.font.body};
    font-size: ${({ theme }) => theme.font.sizeMd};
    line-height: 1.55;
    color: ${({ theme }) => theme.colors.text};
    background: ${({ theme }) => theme.colors.background};
    -webkit-font-smoothing: antialiased;
  }

  /* The frame that switches the theme draws the new colours at once (lib/theme-storage.ts, switchThemeClass). */
  html[${THEME_SWITCHING_ATTRIBUTE}] *,
  html[${THEME_SWITCHING_ATTRIBUTE}] *::before,
  html[${THEME_SWITCHING_ATTRIBUTE}] *::after {
    transition: none !important;
  }

  h1, h2, h3, p { margin: 0; }
  h1, h2, h3 { line-height: 1.2; letter-spacing: -0.01em; }

  img { display: block; max-width: 100%; }

  a { color: inherit; }

  button, input, select { font: inherit; color: inherit; }

  a, button, input, select, [tabindex] { ${focusRing} }

  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after {
      transition-duration: 0.01ms !important;
      scroll-behavior: auto !important;
    }
  }
`;
