import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction } from 'react-router-dom';
import { AppProvider } from '../app/provider';
import { AppRoutes } from '../app/router';
import { createApiClient } from '../lib/api-client';
import type { TestSite } from './test-site';

/** The test's view of the router: where the app is, and a way to press Back. */
interface RouterProbe {
  location: Location;
  navigate: NavigateFunction;
}

function Probe({ onRender }: { onRender: (probe: RouterProbe) => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    onRender({ location, navigate });
  });
  return null;
}

/** A QueryClient per test with retries off, so a failure shows at once and no state leaks between tests. */
function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
}

interface RenderAppOptions {
  site: TestSite;
  queryClient?: QueryClient;
}

/**
 * The whole app at `path` (or at the last of several history entries), in a MemoryRouter, talking to a real
 * site (the production server in front of the upstream double).
 */
export function renderApp(path: string | string[], { site, queryClient = createTestQueryClient() }: RenderAppOptions) {
  const probe = {} as RouterProbe;
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient} apiClient={createApiClient(site.url)}>
      <MemoryRouter initialEntries={typeof path === 'string' ? [path] : path} useTransitions={false}>
        <AppRoutes />
        <Probe onRender={(current) => Object.assign(probe, current)} />
      </MemoryRouter>
    </AppProvider>,
  );
  return { ...view, user, queryClient, router: probe };
}
