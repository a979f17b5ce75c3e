import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/app';
import { AppRoutes, matchPage } from './app/router';
import { createQueryClient, hydrateQueryState } from './lib/query-client';

/** The id of the JSON block the server writes the page's query state into (entry-server.tsx makes it). */
const STATE_ELEMENT_ID = 'catalogue-state';

const container = document.getElementById('root')!;
const queryClient = createQueryClient();
const app = (
  <App queryClient={queryClient}>
    {/* Synchronous navigation: the search box is controlled by the URL and must not lag a keystroke. */}
    <BrowserRouter useTransitions={false}>
      <AppRoutes />
    </BrowserRouter>
  </App>
);

const serverState = document.getElementById(STATE_ELEMENT_ID)?.textContent;
if (container.hasChildNodes() && serverState) {
  hydrateQueryState(queryClient, serverState);
  // The page's chunk first, so the page hydrates in the same pass as the layout around it: a page still loading
  // would leave its server markup waiting, and an update reaching it meanwhile would replace it with the spinner.
  // (A promise, not a top-level await: the page chunk imports from this one, which must finish evaluating first.)
  void matchPage(window.location.pathname)
    .page.load()
    .then(() => hydrateRoot(container, app));
} else {
  // Vite's dev server sends no server markup: render from scratch.
  createRoot(container).render(app);
}
