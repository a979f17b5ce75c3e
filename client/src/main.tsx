import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// Placeholder until the storefront lands: proves the build and the server's SPA serving.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <h1>Products Gallery</h1>
  </StrictMode>,
);
