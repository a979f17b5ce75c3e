import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProvider } from './app/provider';
import { AppRoutes } from './app/router';
import { ErrorBoundary } from './components/error-boundary';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <ErrorBoundary>
        {/* Synchronous navigation: the search box is controlled by the URL and must not lag a keystroke. */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </ErrorBoundary>
    </AppProvider>
  </StrictMode>,
);
