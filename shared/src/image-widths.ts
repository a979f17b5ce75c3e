/**
 * The widths, in CSS pixels of the image itself, that `GET /api/products/{id}/image?w=` resizes to (docs/api.md,
 * "Product images"). One list for the server, which refuses any other width, and for the pages' `srcset`, so a browser
 * only ever asks for a variant the server makes. Chosen from the layouts at 1×, 2× and 3× screens:
 *
 * - 160, 240: a grid card at 4 columns (about 160–210 px wide drawn) on 1× desktop screens;
 * - 320, 480: a card or slide on a phone at 1× (about 280–320 px), the 3-slide carousel on desktop;
 * - 640, 800: the same on 2× phones and Lighthouse's 1.75× mobile screen;
 * - 960, 1280: the detail photo on 2× and 3× screens.
 *
 * Widths past a photo's own are never upscaled: the variant keeps the photo's width.
 */
export const IMAGE_WIDTHS = [160, 240, 320, 480, 640, 800, 960, 1280] as const;

export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** The URL of one variant of an image route (`/api/products/1/image` → `/api/products/1/image?w=320`). */
export function imageVariantUrl(imagePath: string, width: ImageWidth): string {
  return `${imagePath}?w=${width}`;
}

/**
 * Reads the `w` parameter of an image request: `null` when absent (the original bytes), the width when it is
 * exactly one of IMAGE_WIDTHS written as digits, else `undefined` (another value, `w=` empty, `w=0320`, or `w`
 * given twice): the caller answers `400 Invalid image width`.
 */
export function parseImageWidth(query: URLSearchParams): ImageWidth | null | undefined {
  const values = query.getAll('w');
  if (values.length === 0) return null;
  if (values.length > 1) return undefined;
  return imageWidthOf(values[0]);
}

/** The listed width written exactly as `raw` (`'320'`), else `undefined` (`'0320'`, `'321'`, `''`). */
export function imageWidthOf(raw: string | undefined): ImageWidth | undefined {
  return IMAGE_WIDTHS.find((width) => String(width) === raw);
}
