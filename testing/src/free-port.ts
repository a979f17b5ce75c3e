import { createServer } from 'node:net';

/**
 * A port of 127.0.0.1 that is free at this moment, for a program that must be told its port (redis-server, nginx,
 * the built server): found by binding port 0 and letting go. Another process may take it before the program
 * binds it; callers that care retry on a new one.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
