// A thread that asks `workerData.url` every `workerData.intervalMs` ms until it is sent a message, then answers with
// each probe's latency (ms; Infinity for a failure). Started by large-catalogue-server.mjs's startProber.
import { parentPort, workerData } from 'node:worker_threads';

const latencies = [];
const inFlight = new Set();
const timer = setInterval(() => {
  const sent = performance.now();
  const probe = fetch(workerData.url, { signal: AbortSignal.timeout(10_000) })
    .then((response) => response.arrayBuffer())
    .then(
      () => latencies.push(performance.now() - sent),
      () => latencies.push(Infinity),
    );
  inFlight.add(probe);
  void probe.finally(() => inFlight.delete(probe));
}, workerData.intervalMs);

parentPort.once('message', async () => {
  clearInterval(timer);
  await Promise.all(inFlight);
  parentPort.postMessage(latencies);
});
