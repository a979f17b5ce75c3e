/**
 * The page's layout widths in CSS pixels: the client theme's media queries and the photos' `sizes`
 * (product-photo.ts) are written from these, so the two always agree.
 */

/** Breakpoints of docs/product.md, "Page hooks" (min-width, px): grid 640/768/1024, bar collapses below 1024. */
export const BREAKPOINTS = { sm: 640, md: 768, lg: 1024 } as const;

/** The page's content column stops growing here. */
export const PAGE_MAX_WIDTH = 1200;
