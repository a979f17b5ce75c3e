import type { Answer } from '../http/answer.js';
import { IMAGE_CACHE_CONTROL, IMAGE_CSP, IMAGE_MAX_AGE_SECONDS } from './image-headers.js';
import type { ImageEntry } from './image-cache.js';

/**
 * A photo, original or resized, as the response cache and the Express route both send it (prepareAnswer, the
 * one validator mechanism): the image's own bytes (already compressed), its strong ETag, X-Cache and Age as the
 * JSON has them, the long lifetime and the sandbox; a variant adds `Vary: Accept`, since its format follows the
 * browser's `Accept`.
 */
export function imageAnswer(
  { image, cacheStatus, ageSeconds, storedAt, freshUntil }: ImageEntry,
  { variesOnAccept }: { variesOnAccept: boolean },
): Answer {
  return {
    body: { identity: image.body, etag: image.etag },
    contentType: image.contentType,
    ...(variesOnAccept && { vary: 'Accept' }),
    cacheStatus,
    ageSeconds,
    freshForSeconds: IMAGE_MAX_AGE_SECONDS,
    cacheControl: IMAGE_CACHE_CONTROL,
    contentSecurityPolicy: IMAGE_CSP,
    // A variant may be kept by the response cache; an original, up to megabytes, is held by the image cache alone.
    ...(variesOnAccept && { freshness: { storedAt, freshUntil } }),
  };
}
