import { parseImageWidth } from '@catalogue/shared/image-widths';
import { MESSAGES } from '@catalogue/shared/messages';
import { parseProductId } from '@catalogue/shared/product-id';
import { type Request, type Response, Router } from 'express';
import { catalogueErrorHandlers } from '../catalogue/error-answers.js';
import type { HttpCachingPolicy } from '../http/answer.js';
import { allowOnlyGetAndHead } from '../http/method-not-allowed.js';
import { sendCachedAnswer } from '../http/send-answer.js';
import type { Logger } from '../logger.js';
import { imageAnswer } from './image-answer.js';
import type { ProductImages } from './product-images.js';
import { chooseVariantFormat } from './variant-format.js';

export interface ImagesRouterOptions {
  images: ProductImages;
  caching: HttpCachingPolicy;
  logger: Logger;
}

/**
 * `/products/:id/image` (`?w=` for a resized variant), mounted under `/api` after the products router, so that
 * `/products/category/image` stays a category. Originals and variants are answered by one rule (prepareAnswer):
 * one ETag mechanism, X-Cache and Age on both.
 */
export function createImagesRouter({ images, caching, logger }: ImagesRouterOptions): Router {
  const router = Router();
  router
    .route('/products/:id/image')
    .get(async (req: Request, res: Response) => {
      // Ids that are not plain digits never reach the upstream, which hangs on them.
      const id = parseProductId(typeof req.params.id === 'string' ? req.params.id : undefined);
      if (id === null) {
        res.status(400).set('Cache-Control', 'no-store').json({ error: MESSAGES.invalidProductId });
        return;
      }
      const query = req.originalUrl.indexOf('?');
      const width = parseImageWidth(new URLSearchParams(query === -1 ? '' : req.originalUrl.slice(query + 1)));
      if (width === undefined) {
        res.status(400).set('Cache-Control', 'no-store').json({ error: MESSAGES.invalidImageWidth });
        return;
      }
      const answer =
        width === null
          ? imageAnswer(await images.original(id), { variesOnAccept: false })
          : imageAnswer(await images.variant(id, width, chooseVariantFormat(req.headers.accept)), { variesOnAccept: true });
      sendCachedAnswer(req, res, answer, caching);
    }, catalogueErrorHandlers(logger).image)
    .all(allowOnlyGetAndHead);
  return router;
}
