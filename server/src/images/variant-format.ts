/**
 * What a browser gets for a resized image: AVIF when it says it takes AVIF, else WebP when it takes WebP, else
 * the photo's own format. Decided from `Accept` alone, so a cached variant can be found without the original.
 */
export type VariantFormat = 'avif' | 'webp' | 'original';

/**
 * Reads `Accept` (RFC 9110 §12.5.1) for the two modern formats. Only an explicit `image/avif` or `image/webp`
 * with a quality above 0 counts: `image/*` and `*\/*` are sent by browsers that decode neither, and browsers
 * that do name them (Chromium, Firefox and Safari all do).
 */
export function chooseVariantFormat(accept: string | undefined): VariantFormat {
  const accepted = new Set<string>();
  for (const part of (accept ?? '').split(',')) {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => /^q\s*=/.test(param));
    const quality = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1));
    if (quality > 0) accepted.add(type);
  }
  if (accepted.has('image/avif')) return 'avif';
  if (accepted.has('image/webp')) return 'webp';
  return 'original';
}
