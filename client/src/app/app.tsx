import { StrictMode, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { ErrorBoundary } from '../components/error-boundary';
import type { ApiClient } from '../lib/api-client';
import { AppProvider } from './provider';

interface AppProps {
  queryClient: QueryClient;
  apiClient?: ApiClient;
  /** The router with the app's routes inside: a BrowserRouter in the browser, a StaticRouter on the server. */
  children: ReactNode;
}

/**
 * The whole app around its router, one tree for both entries: the server renders it (entry-server.tsx) and the
 * browser hydrates it (main.tsx), and hydration needs the two trees to be the same.
 */
export function App({ queryClient, apiClient, children }: AppProps) {
  return (
    <StrictMode>
      <AppProvider queryClient={queryClient} apiClient={apiClient}>
        <ErrorBoundary>{children}</ErrorBoundary>
      </AppProvider>
    </StrictMode>
  );
}
