import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MESSAGES } from '@catalogue/shared/messages';
import type { Product } from '@catalogue/shared/product';
import { parseProductId } from '@catalogue/shared/product-id';
import { API_PATHS } from '@catalogue/shared/routes';
import { FIXTURE_PRODUCTS } from './fixtures';

interface CannedAnswer {
  status: number;
  body: unknown;
  /** How many more requests get this answer before the catalogue answers again. */
  remaining: number;
}

export interface FixtureServer {
  /** e.g. `http://127.0.0.1:54321`, for createApiClient. */
  baseUrl: string;
  /** Every request path, in order: lets a test prove a request was (not) made, or not retried. */
  requests: string[];
  /** Answers `path` with this status and body instead of the catalogue: `times` times, or until reset. */
  answer(path: string, status: number, body: unknown, times?: number): void;
  /** Back to answering from the catalogue. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server on port 0 that speaks the product API of the README ("HTTP API") from fixtures, so the client's
 * fetchers, errors and retries run for real in tests (no mocked modules).
 */
export async function startFixtureServer(products: readonly Product[] = FIXTURE_PRODUCTS): Promise<FixtureServer> {
  const requests: string[] = [];
  const canned = new Map<string, CannedAnswer>();

  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fixture').pathname;
    requests.push(path);
    const send = ({ status, body }: Omit<CannedAnswer, 'remaining'>) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };

    const override = canned.get(path);
    if (override) {
      if (--override.remaining === 0) canned.delete(path);
      return send(override);
    }
    if (path === API_PATHS.products) return send({ status: 200, body: products });

    const match = /^\/api\/products\/([^/]+)$/.exec(path);
    if (match) {
      const id = parseProductId(decodeURIComponent(match[1] ?? ''));
      if (id === null) return send({ status: 400, body: { error: MESSAGES.invalidProductId } });
      const product = products.find((candidate) => candidate.id === id);
      return product ? send({ status: 200, body: product }) : send({ status: 404, body: { error: MESSAGES.productNotFound } });
    }
    return send({ status: 404, body: { error: MESSAGES.notFound } });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    answer: (path, status, body, times = Infinity) => canned.set(path, { status, body, remaining: times }),
    reset: () => {
      canned.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
