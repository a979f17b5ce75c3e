import { preloadAppChunks } from './lib/app-chunks';
import { leadPhotosPainted } from './lib/lead-photos';

// The page arrives whole from the server; the app that takes it over is fetched and run only once the lead photo is
// painted (lead-photos.ts), so neither its bytes nor its start and hydration hold up that paint. Its chunks are then
// preloaded together (app-chunks.ts) rather than one import after another. The server writes the page's query state
// into the JSON block (entry-server.tsx makes it; docs/pages.md, "The state").
void leadPhotosPainted(document)
  .then(() => {
    preloadAppChunks(document);
    return import('./app/start-app');
  })
  .then(({ startApp }) => startApp(document.getElementById('root')!, document.getElementById('catalogue-state')?.textContent));
