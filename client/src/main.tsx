import { leadPhotosPainted } from './lib/lead-photos';

// The page arrives whole from the server; the app that takes it over is fetched only once the lead photo is painted
// (lead-photos.ts), so the two do not compete for the first round trips. The server writes the page's query state into
// the JSON block (entry-server.tsx makes it; docs/pages.md, "The state").
void leadPhotosPainted(document)
  .then(() => import('./app/start-app'))
  .then(({ startApp }) => startApp(document.getElementById('root')!, document.getElementById('catalogue-state')?.textContent));
