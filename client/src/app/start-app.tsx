import { useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient, hydrateQueryState } from '../lib/query-client';
import { App } from './app';
import { AppRoutes, matchPage } from './router';

/**
 * Starts the app in `container`. Server-rendered markup with the server's query state (the text of the page's
 * `#catalogue-state` block) is hydrated: the cache is seeded with that state and the page's lazy chunks loaded first, so
 * the page hydrates in one pass (a part still loading would leave its server markup waiting, and an update reaching it
 * meanwhile would replace it with the spinner). Without them (Vite's dev server) the app
 * renders from scratch.
 */
export async function startApp(container: HTMLElement, serverState: string | null | undefined): Promise<Root> {
  const queryClient = createQueryClient();
  const app = (
    <App queryClient={queryClient}>
      <InControlMark>
        {/* Synchronous navigation: the search box is controlled by the URL and must not lag a keystroke. */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </InControlMark>
    </App>
  );
  if (!container.hasChildNodes() || !serverState) {
    const root = createRoot(container);
    root.render(app);
    return root;
  }
  hydrateQueryState(queryClient, serverState);
  await Promise.all(matchPage(window.location.pathname).page.chunks.map((chunk) => chunk.load()));
  return hydrateRoot(container, app);
}

/** The moment the app is in control (its first commit: hydration done), which the bench times from the first paint. */
export const IN_CONTROL_MARK = 'app-in-control';

/**
 * Renders its one child as it is, so the tree hydrates as the server's (which lacks it) with the same ids (useId counts
 * siblings, not wrappers); its effect runs after every effect below it in the first commit.
 */
function InControlMark({ children }: { children: ReactNode }) {
  useEffect(() => void performance.mark(IN_CONTROL_MARK), []);
  return children;
}
