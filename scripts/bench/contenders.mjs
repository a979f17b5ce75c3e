// The two reference servers the built server is measured against, each run as its own pinned process:
//   raw      node:http answering the built server's own response (status line aside, the same headers and the
//            same body bytes) with no work at all per request: the ceiling on this machine;
//   express  a typical proxy: Express 5, `compression()`, `res.json(products)`, i.e. serialise and compress
//            on every request.
// Run as `node contenders.mjs <raw|express> <prepared.json>`; it prints `listening <port>` once it listens.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startNode, waitForLine } from './processes.mjs';

const SELF = fileURLToPath(import.meta.url);
// Express and compression are the server workspace's dependencies: resolve them from there.
const serverRequire = createRequire(new URL('../../server/package.json', import.meta.url));

/**
 * Starts a contender on `core`. `prepared` is what it serves: for `raw`, `{ headers: [[name, value]…],
 * bodyBase64 }`; for `express`, `{ json }` (the identity text of the list).
 */
export async function startContender(kind, preparedFile, core) {
  const child = startNode([SELF, kind, preparedFile], { core });
  const [, port] = await waitForLine(child, /listening (\d+)/);
  return { kind, child, url: `http://127.0.0.1:${port}/api/products` };
}

function rawServer({ headers, bodyBase64 }) {
  const body = Buffer.from(bodyBase64, 'base64');
  const flatHeaders = headers.flat();
  return createServer((_req, res) => {
    res.writeHead(200, flatHeaders);
    res.end(body);
  });
}

function expressServer({ json }) {
  const express = serverRequire('express');
  const compression = serverRequire('compression');
  const products = JSON.parse(json);
  const app = express();
  app.use(compression());
  app.get('/api/products', (_req, res) => {
    res.json(products);
  });
  return createServer(app);
}

if (process.argv[1] === SELF) {
  const [kind, preparedFile] = process.argv.slice(2);
  const prepared = JSON.parse(readFileSync(preparedFile, 'utf8'));
  const server = kind === 'raw' ? rawServer(prepared) : kind === 'express' ? expressServer(prepared) : null;
  if (server === null) throw new Error(`unknown contender ${kind}`);
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
  process.once('SIGTERM', () => process.exit(0));
  process.once('SIGINT', () => process.exit(0));
}
