import { hashKey } from '@tanstack/react-query';
import { prerender } from 'react-dom/static.edge';
import { StaticRouter } from 'react-router-dom';
import { ServerStyleSheet } from 'styled-components';
import type { RenderRequest, RenderResult } from '@catalogue/shared/page-render';
import { pageOf } from '@catalogue/shared/page-routes';
import { App } from '../app/app';
import { AppRoutes, PAGES } from '../app/router';
import { pagePreloads } from '../lib/page-preloads';
import { createServerQueryClient, serializeQueryState } from '../lib/query-client';
import { BUILD_MANIFEST } from './build-manifest';
import { pageSeeds, seedQueries } from './seed-queries';

/**
 * One page: `route` is the page the server resolved the URL to, so it is not matched again here. The query cache
 * is seeded with what the server already holds (seed-queries.ts), so the render asks nothing of anyone.
 */
export async function render({ url, route, data }: RenderRequest): Promise<RenderResult> {
  const page = PAGES[pageOf(route)];
  const queryClient = createServerQueryClient();
  const seeded = new Set((await seedQueries(queryClient, pageSeeds(route, data))).map(hashKey));

  const sheet = new ServerStyleSheet();
  try {
    const errors: unknown[] = [];
    // prerender, unlike renderToString, waits for lazy chunks instead of sending the Suspense fallback. Every boundary
    // stays inline (no progressive chunks): an outlined one is revealed by an inline script, which the
    // Content-Security-Policy forbids, so the page would stay hidden behind the spinner.
    // The edge build, not Node's: Node's runs every render in an AsyncLocalStorage, and on Node 20 the first one
    // turns on an async hook for the life of the process, which every request then pays for, pages or not
    // (docs/decisions/react-edge-renderer.md).
    const { prelude } = await prerender(
      sheet.collectStyles(
        <App queryClient={queryClient}>
          <StaticRouter location={url}>
            <AppRoutes />
          </StaticRouter>
        </App>,
      ),
      { onError: (error) => void errors.push(error), progressiveChunkSize: Infinity },
    );
    const html = await new Response(prelude).text();
    // Error boundaries do not run on the server: a page that throws would arrive as the spinner. Fail instead.
    if (errors.length > 0) throw errors[0];
    return {
      html,
      styles: sheet.getStyleTags(),
      state: serializeQueryState(queryClient, (query) => seeded.has(query.queryHash)),
      preloads: pagePreloads(
        BUILD_MANIFEST,
        page.chunks.map((chunk) => chunk.modulePath),
      ),
    };
  } finally {
    sheet.seal();
  }
}
