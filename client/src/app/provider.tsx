import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiClientContext, createApiClient, type ApiClient } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { ThemeModeProvider } from '../lib/theme-mode';
import { GlobalStyle } from '../styles/global-style';

interface AppProviderProps {
  children: ReactNode;
  /** Tests pass their own (retry off, fresh per test); the app makes one for its lifetime. */
  queryClient?: QueryClient;
  /** Tests point it at a real server on port 0; the app uses the same origin. */
  apiClient?: ApiClient;
}

export function AppProvider({ children, queryClient, apiClient }: AppProviderProps) {
  const [ownQueryClient] = useState(() => queryClient ?? createQueryClient());
  const [ownApiClient] = useState(() => apiClient ?? createApiClient(''));
  return (
    <ApiClientContext.Provider value={ownApiClient}>
      <QueryClientProvider client={ownQueryClient}>
        <ThemeModeProvider>
          <GlobalStyle />
          {children}
        </ThemeModeProvider>
      </QueryClientProvider>
    </ApiClientContext.Provider>
  );
}
