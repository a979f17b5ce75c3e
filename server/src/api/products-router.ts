import { parseImageWidth } from '@catalogue/shared/image-widths';
import { MESSAGES } from '@catalogue/shared/messages';
import { parseProductId } from '@catalogue/shared/product-id';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { IMAGE_CACHE_CONTROL, IMAGE_CSP, imageVariantAnswer } from '../images/image-answer.js';
import { chooseVariantFormat } from '../images/variant-format.js';
import type { Logger } from '../logger.js';
import type { HttpCachingPolicy } from '../response-cache/cached-answer.js';
import { jsonAnswer } from './cacheable-product-routes.js';
import { catalogueErrorHandlers } from './errors.js';
import { allowOnlyGetAndHead } from './method-not-allowed.js';
import { sendCachedAnswer } from './send-cached-answer.js';

export interface ProductsRouterOptions {
  catalogue: CachedCatalogue;
  caching: HttpCachingPolicy;
  logger: Logger;
}

/** `/products`, `/products/:id` and `/products/:id/image`, mounted under `/api`. */
export function createProductsRouter({ catalogue, caching, logger }: ProductsRouterOptions): Router {
  const router = Router();
  const answerErrors = catalogueErrorHandlers(logger);

  const listProducts: RequestHandler = async (req, res) => {
    sendCachedAnswer(req, res, jsonAnswer(await catalogue.listProducts()), caching);
  };

  router.route('/products').get(listProducts, answerErrors.list).all(allowOnlyGetAndHead);

  router
    .route('/products/:id')
    .get(
      withProductId(async (id, req, res) => {
        sendCachedAnswer(req, res, jsonAnswer(await catalogue.getProduct(id)), caching);
      }),
      answerErrors.product,
    )
    .all(allowOnlyGetAndHead);

  router
    .route('/products/:id/image')
    .get(
      withProductId(async (id, req, res) => {
        const queryStart = req.originalUrl.indexOf('?');
        const width = parseImageWidth(new URLSearchParams(queryStart === -1 ? '' : req.originalUrl.slice(queryStart + 1)));
        if (width === undefined) {
          res.status(400).set('Cache-Control', 'no-store').json({ error: MESSAGES.invalidImageWidth });
          return;
        }
        if (width !== null) {
          const variant = await catalogue.getProductImageVariant(id, width, chooseVariantFormat(req.headers.accept));
          sendCachedAnswer(req, res, imageVariantAnswer(variant), caching);
          return;
        }
        const image = await catalogue.getProductImage(id);
        res
          .status(200)
          .set({ 'Content-Type': image.contentType, 'Cache-Control': IMAGE_CACHE_CONTROL, 'Content-Security-Policy': IMAGE_CSP })
          .send(image.body);
      }),
      answerErrors.image,
    )
    .all(allowOnlyGetAndHead);

  return router;
}

/** Rejects ids that are not plain digits before anything reaches the upstream, which hangs on them. */
function withProductId(handle: (id: number, req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req, res) => {
    const raw = req.params.id;
    const id = parseProductId(typeof raw === 'string' ? raw : undefined);
    if (id === null) {
      res.status(400).set('Cache-Control', 'no-store').json({ error: MESSAGES.invalidProductId });
      return;
    }
    await handle(id, req, res);
  };
}
