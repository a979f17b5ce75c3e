/**
 * An HTTP upstream's `ETag` and `Last-Modified` for what it sent (an image, the list), sent back as
 * `If-None-Match`/`If-Modified-Since`.
 */
export interface UpstreamValidators {
  etag?: string;
  lastModified?: string;
}
