import { BREAKPOINTS, PAGE_MAX_WIDTH } from '@catalogue/shared/breakpoints';

/**
 * The two designed colour schemes and the typed theme the styled components read. Every colour the pages use comes
 * from here; text pairs are chosen for WCAG AA (body and muted text ≥ 4.5:1 on both `background` and `surface`,
 * `onAccent` ≥ 4.5:1 on `accentStrong`). `brand` is the orange-red of the logo and spinner: decorative only, it is
 * never used for text.
 *
 * Colours and shadows reach the components as CSS custom properties (`var(--color-text)`), defined for `:root` (light)
 * and `html.dark` by `themeVariables`: the theme is the `dark` class that public/theme-init.js sets before the first
 * paint, so the server's HTML and styles are the same for every visitor and a dark reload never flashes light.
 */
export type ThemeMode = 'light' | 'dark';

interface ThemeColors {
  background: string;
  surface: string;
  surfaceMuted: string;
  border: string;
  text: string;
  textMuted: string;
  brand: string;
  accentStrong: string;
  accentHover: string;
  onAccent: string;
  badgeBackground: string;
  badgeText: string;
  focusRing: string;
  star: string;
  starEmpty: string;
  imageWell: string;
  barBackground: string;
  barBackgroundScrolled: string;
  overlay: string;
  spinnerBackdrop: string;
}

interface ThemeShadows {
  card: string;
  cardHover: string;
  bar: string;
}

/** What differs between light and dark. */
interface ColorScheme {
  colors: ThemeColors;
  shadow: ThemeShadows;
}

export interface AppTheme extends ColorScheme {
  space: { xs: string; sm: string; md: string; lg: string; xl: string; xxl: string };
  radius: { sm: string; md: string; lg: string; pill: string };
  font: { body: string; sizeSm: string; sizeMd: string; sizeLg: string; sizeXl: string; sizeHero: string };
  layout: { maxWidth: string; barHeight: string; barHeightCompact: string };
  transition: { menu: string; smooth: string; quick: string };
}

export { BREAKPOINTS };

export const media = {
  sm: `@media (min-width: ${BREAKPOINTS.sm}px)`,
  md: `@media (min-width: ${BREAKPOINTS.md}px)`,
  lg: `@media (min-width: ${BREAKPOINTS.lg}px)`,
} as const;

/** The mobile-menu transition of docs/product.md, "Navigation bar": 300 ms. */
export const MENU_TRANSITION_MS = 300;

const layout = {
  space: { xs: '4px', sm: '8px', md: '16px', lg: '24px', xl: '40px', xxl: '64px' },
  radius: { sm: '8px', md: '14px', lg: '20px', pill: '999px' },
  font: {
    body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
    sizeSm: '0.875rem',
    sizeMd: '1rem',
    sizeLg: '1.25rem',
    sizeXl: 'clamp(1.75rem, 1.3rem + 2vw, 2.5rem)',
    sizeHero: 'clamp(5rem, 3rem + 10vw, 9rem)',
  },
  layout: { maxWidth: `${PAGE_MAX_WIDTH}px`, barHeight: '88px', barHeightCompact: '72px' },
  transition: { menu: `${MENU_TRANSITION_MS}ms ease`, smooth: '300ms ease', quick: '160ms ease' },
} as const;

const light: ColorScheme = {
  colors: {
    background: '#faf7f5',
    surface: '#ffffff',
    surfaceMuted: '#f3efec',
    border: '#e7e1dc',
    text: '#1c1917',
    textMuted: '#5f5a57',
    brand: '#ff4500',
    accentStrong: '#c2410c',
    accentHover: '#a3360a',
    onAccent: '#ffffff',
    badgeBackground: '#ffedd5',
    badgeText: '#9a3412',
    focusRing: '#c2410c',
    star: '#e0820b',
    starEmpty: '#d6d0cb',
    imageWell: '#ffffff',
    barBackground: 'rgba(250, 247, 245, 0.96)',
    barBackgroundScrolled: 'rgba(250, 247, 245, 0.78)',
    overlay: 'rgba(28, 25, 23, 0.45)',
    spinnerBackdrop: 'rgba(250, 247, 245, 0.82)',
  },
  shadow: {
    card: '0 1px 2px rgba(28, 25, 23, 0.06), 0 4px 16px rgba(28, 25, 23, 0.06)',
    cardHover: '0 2px 4px rgba(28, 25, 23, 0.08), 0 12px 28px rgba(28, 25, 23, 0.12)',
    bar: '0 1px 0 rgba(28, 25, 23, 0.08), 0 6px 20px rgba(28, 25, 23, 0.06)',
  },
};

const dark: ColorScheme = {
  colors: {
    background: '#111113',
    surface: '#1b1b1f',
    surfaceMuted: '#242429',
    border: '#2f2f36',
    text: '#f5f5f4',
    textMuted: '#b3ada8',
    brand: '#ff4500',
    accentStrong: '#ff6a3d',
    accentHover: '#ff8a63',
    onAccent: '#1a0b05',
    badgeBackground: '#3a1d14',
    badgeText: '#ffb199',
    focusRing: '#ff8a63',
    star: '#fbbf24',
    starEmpty: '#4a4a52',
    // Product photos are shot on white; a soft light well keeps them from glaring against the dark page.
    imageWell: '#ecebe9',
    barBackground: 'rgba(17, 17, 19, 0.96)',
    barBackgroundScrolled: 'rgba(17, 17, 19, 0.72)',
    overlay: 'rgba(0, 0, 0, 0.6)',
    spinnerBackdrop: 'rgba(17, 17, 19, 0.82)',
  },
  shadow: {
    card: '0 1px 2px rgba(0, 0, 0, 0.4), 0 4px 16px rgba(0, 0, 0, 0.25)',
    cardHover: '0 2px 4px rgba(0, 0, 0, 0.45), 0 12px 28px rgba(0, 0, 0, 0.4)',
    bar: '0 1px 0 rgba(255, 255, 255, 0.06), 0 6px 20px rgba(0, 0, 0, 0.35)',
  },
};

const SCHEMES: Record<ThemeMode, ColorScheme> = { light, dark };

/** `barBackgroundScrolled` → `--color-bar-background-scrolled`. */
function cssVariable(group: 'color' | 'shadow', name: string): string {
  return `--${group}-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

function references<T extends object>(group: 'color' | 'shadow', values: T): Record<keyof T, string> {
  return Object.fromEntries(Object.keys(values).map((name) => [name, `var(${cssVariable(group, name)})`])) as Record<keyof T, string>;
}

function declarations(mode: ThemeMode): string {
  const { colors, shadow } = SCHEMES[mode];
  const lines = [
    ...Object.entries(colors).map(([name, value]) => `${cssVariable('color', name)}: ${value};`),
    ...Object.entries(shadow).map(([name, value]) => `${cssVariable('shadow', name)}: ${value};`),
    // Native controls and scrollbars follow the page's scheme.
    `color-scheme: ${mode};`,
  ];
  return lines.join('\n');
}

/** The custom properties behind `theme.colors` and `theme.shadow`: light on `:root`, dark on `html.dark`. */
export const themeVariables = `
:root {
${declarations('light')}
}
html.dark {
${declarations('dark')}
}
`;

/** The one theme every styled component reads (styled.d.ts makes it `DefaultTheme`). */
export const theme: AppTheme = {
  ...layout,
  colors: references('color', light.colors),
  shadow: references('shadow', light.shadow),
};
