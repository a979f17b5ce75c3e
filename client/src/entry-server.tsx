/**
 * The app rendered on the server: Vite builds this file into dist/server/entry-server.js (`npm run build`), which the
 * server loads at start-up and calls for every page it renders (server/render.tsx). The browser hydrates the result
 * (main.tsx). See docs/pages.md.
 */
export { render } from './server/render';
