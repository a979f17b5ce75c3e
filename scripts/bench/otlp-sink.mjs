// An OTLP/HTTP receiver that reads every export and drops it, for measuring what traces cost the server when on
// (docs/performance.md, "Traces"): `node scripts/bench/otlp-sink.mjs [port]` (default 4318) prints its URL, then
// the spans it was sent when stopped (SIGINT, SIGTERM). It counts spans by their `"spanId"`, not by parsing.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 4318);
let spans = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    spans += Buffer.concat(chunks).toString('latin1').split('"spanId"').length - 1;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
});
server.listen(port, '127.0.0.1', () => console.log(`OTLP sink at http://127.0.0.1:${port}`));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.log(`spans received: ${spans}`);
    process.exit(0);
  });
}
