import { startApp } from './app/start-app';

// The server writes the page's query state into this JSON block (entry-server.tsx makes it; docs/pages.md, "The state").
void startApp(document.getElementById('root')!, document.getElementById('catalogue-state')?.textContent);
