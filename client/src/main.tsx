import { leadPhotosPainted } from './lib/lead-photos';

// The page arrives whole from the server; the app that takes it over runs only once the lead photo is painted
// (lead-photos.ts), so its start and hydration never hold up that paint. Its bytes are already on their way: the head
// preloads them at low priority beside the photo (lib/page-preloads.ts), so the import below rarely waits on the
// network. The server writes the page's query state into the JSON block (entry-server.tsx makes it; docs/pages.md,
// "The state").
void leadPhotosPainted(document)
  .then(() => import('./app/start-app'))
  .then(({ startApp }) => startApp(document.getElementById('root')!, document.getElementById('catalogue-state')?.textContent));
