// The photo's operation in the OpenAPI document, its route's (image-route.ts), with its own headers.
import { MESSAGES } from '@catalogue/shared/messages';
import type { HeaderObject, OperationObject } from 'openapi3-ts/oas31';
import { ANY_REQUEST_RESPONSES, errorResponse, PRODUCT_TAG } from '../api-description/openapi-components.js';
import { RATE_LIMIT_HEADERS } from '../api-description/openapi-headers.js';
import { ref } from '../api-description/openapi-ref.js';
import { IMAGE_CACHE_CONTROL } from './image-headers.js';

/** The photo's lifetime, among the document's shared headers. */
export const IMAGE_HEADER_COMPONENTS: Record<string, HeaderObject> = {
  CacheControlImage: {
    description: 'Images are named by product and change only with it: kept for a day.',
    required: true,
    schema: { type: 'string', const: IMAGE_CACHE_CONTROL },
  },
};

const IMAGE_HEADERS = {
  ETag: ref('headers', 'ImageETag'),
  'Cache-Control': ref('headers', 'CacheControlImage'),
  ...RATE_LIMIT_HEADERS,
};

export const getProductImage: OperationObject = {
  operationId: 'getProductImage',
  summary: 'A product’s image',
  description: [
    'The image at the URL the upstream gave for this product (never a URL a client supplies), fetched by this server, so browsers only ever talk to this origin. Each product’s `image` field is this route.',
    '',
    `Without \`w\`: the upstream’s bytes and content type. With \`w\`: resized to that width, in **AVIF** when \`Accept\` names \`image/avif\`, else **WebP** when it names \`image/webp\`, else the photo’s own JPEG or PNG (other formats become PNG); an SVG is sent unchanged. Every image carries a sandboxing \`Content-Security-Policy\`.`,
  ].join('\n'),
  tags: [PRODUCT_TAG],
  parameters: [ref('parameters', 'ProductId'), ref('parameters', 'ImageWidth')],
  responses: {
    '200': {
      description:
        'The image, with a sandboxing `Content-Security-Policy`. A resized one also carries `Age`, `X-Cache` and `Vary: Accept` (its format follows `Accept`).',
      headers: IMAGE_HEADERS,
      content: { 'image/*': {} },
    },
    '304': { description: 'The `If-None-Match` named the current image.', headers: IMAGE_HEADERS },
    '400': errorResponse('An id that is not made of digits; a `w` that is not one of the listed widths, empty, or given twice.', [
      MESSAGES.invalidProductId,
      MESSAGES.invalidImageWidth,
    ]),
    '404': ref('responses', 'NotFound'),
    ...ANY_REQUEST_RESPONSES,
    '502': errorResponse(
      'The image cannot be had: the catalogue failed, or the image could not be fetched, is not `image/*`, is over `IMAGE_MAX_BYTES`, is on an origin `IMAGE_HOSTS` does not allow, or (resizing) is not a readable image or declares over 25 megapixels.',
      [MESSAGES.catalogueUnavailable],
    ),
    '504': ref('responses', 'CatalogueTimeout'),
  },
};
