import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a thread of the list's from its entry file next to this one: the built JavaScript in production. When
 * the server itself runs from its TypeScript sources (the tests), the thread imports its source through tsx, with
 * the workspaces' `source` condition as Vitest has it: its entry is a line of JavaScript that registers tsx first
 * (hooks given by `--import` are not ready in time for a worker's own entry).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
// Named, not written `new URL(…, import.meta.url)`: Vite rewrites that spelling into a URL from the project's root
// when the client's tests (a browser environment) load the server, which a worker cannot import.
const here = import.meta.url;

export type ThreadEntry = 'fill-thread';

/** Each thread is named for its entry, so an inspector or a diagnostic report tells them apart. */
export function startThread(entry: ThreadEntry, workerOptions: WorkerOptions = {}): Worker {
  const file = new URL(`./${entry}${FROM_SOURCE ? '.ts' : '.js'}`, here);
  const options = { ...workerOptions, name: `catalogue ${entry}` };
  if (!FROM_SOURCE) return new Worker(file, options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const source = `const { register } = await import(${tsx}); register(); await import(${JSON.stringify(file.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { ...options, execArgv: ['--conditions=source'] });
}
