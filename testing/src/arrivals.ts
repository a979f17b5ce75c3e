import type { Server } from 'node:http';

/**
 * Resolves once `count` requests have reached `server`. Tests that gather waiters behind one held upstream
 * request use it to know every waiter is in before they let the upstream answer: a request's way from arrival
 * to the cache is promise callbacks only, and those all run before the upstream's answer, which is network
 * I/O, can be read.
 */
export function arrivals(server: Server, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const onRequest = () => {
      seen += 1;
      if (seen < count) return;
      server.off('request', onRequest);
      resolve();
    };
    server.on('request', onRequest);
  });
}
