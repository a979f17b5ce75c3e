import { PAGE_PATHS } from '@catalogue/shared/routes';

/** The site's two destinations, in the wide bar and in the mobile menu alike. */
export const NAV_ENTRIES = [
  { to: PAGE_PATHS.home, label: 'Home', end: true },
  { to: PAGE_PATHS.products, label: 'Products', end: false },
] as const;
