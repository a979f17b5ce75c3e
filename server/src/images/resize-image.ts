import { availableParallelism } from 'node:os';
import type { ImageWidth } from '@catalogue/shared/image-widths';
import pLimit from 'p-limit';
import type { default as sharpFunction, Sharp } from 'sharp';
import { type ProductImage, UpstreamError } from '../catalogue/sources/product-source.js';
import type { VariantFormat } from './variant-format.js';
import { inSpan } from '../tracing/spans.js';

type SharpModule = typeof sharpFunction;
let loadingSharp: Promise<SharpModule> | undefined;

/**
 * sharp is loaded on the first resize, not at start-up: libvips and its libraries are about 18 MB resident
 * (measured: 39 → 57 MB for a bare Node process), which a server that never resizes (the embedded catalogue's
 * SVGs, a replica that only answers the API) never needs (docs/decisions/memory.md).
 */
function loadSharp(): Promise<SharpModule> {
  loadingSharp ??= import('sharp').then(({ default: sharp }) => {
    // libvips' own cache of decoded images and operations would hold on to memory outside IMAGE_CACHE_MAX_BYTES;
    // the image cache already keeps the bytes worth keeping.
    sharp.cache(false);
    // One libvips thread per resize, whatever the allocator (sharp's default is one per core with jemalloc):
    // resizes run side by side up to `concurrency` instead, and each thread's buffers are one more arena's worth
    // of native memory (docs/decisions/memory.md).
    sharp.concurrency(1);
    return sharp;
  });
  return loadingSharp;
}

/**
 * The largest image, in pixels, that is decoded at all: above any product photo (a 24-megapixel camera original
 * is 6,000 × 4,000), far below what a decompression bomb declares (a small PNG can claim 100,000 × 100,000).
 * libvips reads the dimensions from the header and refuses before decoding anything.
 */
export const MAX_INPUT_PIXELS = 25_000_000;

/**
 * Resizes run on libuv's thread pool (sharp never blocks the event loop), at most this many at once: one per
 * core, and never more than half of the pool's four threads, so response compression and file reads, which
 * share the pool, always find a free thread during a burst of cold variants.
 */
const DEFAULT_CONCURRENCY = Math.max(1, Math.min(availableParallelism(), 2));

/**
 * Encoder settings, tuned on a 1,049 × 1,500 product photo on 2 cores (figures in docs/performance.md, "Product photos"):
 * AVIF at effort 0 with 4:2:0 chroma makes a 320 px variant of about 7 KB in about 20 ms and the full width in
 * about 70 ms, where effort 4 takes over a second for 2 KB less; WebP at effort 2 is within 10% of effort 4's
 * size in half its time. JPEG (only for browsers that take neither) stays with libjpeg-turbo, several times
 * faster than mozjpeg.
 */
const ENCODE = {
  avif: (image: Sharp) => image.avif({ quality: 50, effort: 0, chromaSubsampling: '4:2:0' }),
  webp: (image: Sharp) => image.webp({ quality: 75, effort: 2 }),
  jpeg: (image: Sharp) => image.jpeg({ quality: 80 }),
  png: (image: Sharp) => image.png(),
} as const;

export interface ImageResizerOptions {
  /** Resizes running at once. Default: the number of cores, at most 2. */
  concurrency?: number;
  /** Default: MAX_INPUT_PIXELS. */
  maxInputPixels?: number;
}

export interface ImageResizer {
  /**
   * `image` at `width` CSS pixels (never wider than it already is) in `format`; `original` keeps JPEG and PNG as
   * they are and turns other formats into PNG. An SVG is returned unchanged: it scales by itself. Rejects
   * with an UnreadableImageError for a corrupt or non-image body, or one over the pixel limit.
   */
  resize(image: ProductImage, width: ImageWidth, format: VariantFormat, label: string): Promise<ProductImage>;
}

/** The source's bytes are not an image this server can read; a kind of upstream failure (502). */
export class UnreadableImageError extends UpstreamError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'UnreadableImageError';
  }
}

export function createImageResizer({
  concurrency = DEFAULT_CONCURRENCY,
  maxInputPixels = MAX_INPUT_PIXELS,
}: ImageResizerOptions = {}): ImageResizer {
  const limit = pLimit(concurrency);

  return {
    async resize(image, width, format, label) {
      if (isSvg(image.contentType)) return image;
      // The span covers the wait for a free resize too: a queue behind other resizes is time this request spent.
      return inSpan('resize image', { 'catalogue.image.width': width, 'catalogue.image.format': format }, () =>
        limit(async () => {
          try {
            const sharp = await loadSharp();
            const pipeline = sharp(image.body, { limitInputPixels: maxInputPixels })
              // Phone photos are often stored sideways with an EXIF orientation: turn them first, so `width`
              // is the width as seen.
              .autoOrient()
              .resize({ width, withoutEnlargement: true });
            const output = format === 'original' ? originalFormat(image.contentType) : format;
            const body = await ENCODE[output](pipeline).toBuffer();
            return { body, contentType: `image/${output}` };
          } catch (error) {
            const reason = error instanceof Error ? error.message.trim() : String(error);
            throw new UnreadableImageError(`the image at ${label} cannot be resized: ${reason}`, { cause: error });
          }
        }),
      );
    },
  };
}

function isSvg(contentType: string): boolean {
  return /^image\/svg\+xml\b/i.test(contentType);
}

/** JPEG and PNG stay as they are; anything else (GIF, WebP, AVIF, TIFF) becomes PNG, which every browser shows. */
function originalFormat(contentType: string): 'jpeg' | 'png' {
  return /^image\/(jpeg|jpg|pjpeg)\b/i.test(contentType) ? 'jpeg' : 'png';
}
