import { Session } from 'node:inspector';
import WebSocket from 'ws';

/**
 * Ends one of the list's worker threads from inside, as a crash would (`process.exit(1)` run in that thread), through
 * the inspector's NodeWorker domain: the server has no hook for it, in production or in tests. `entry` names the
 * thread as list-threads/start-thread.ts names it, e.g. `fill-thread`; the first such thread found is ended.
 * Resolves once the inspector has passed the exit on (the thread's exit itself follows at once).
 */
export async function endThreadFromInside(entry: string, inspector: Inspector = ownInspector()): Promise<void> {
  try {
    const sessionId = new Promise<string>((resolve) => {
      inspector.on('NodeWorker.attachedToWorker', (params: AttachedToWorker) => {
        if (params.workerInfo.title.endsWith(`catalogue ${entry}`)) resolve(params.sessionId);
      });
    });
    // Attaching reports every worker running now; none is paused by it.
    await inspector.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
    const toWorker = { sessionId: await sessionId };
    // The thread's context is found by an evaluation only once the Runtime domain is on in it.
    const messages = [
      { id: 1, method: 'Runtime.enable', params: {} },
      { id: 2, method: 'Runtime.evaluate', params: { expression: 'process.exit(1)' } },
    ];
    for (const message of messages)
      await inspector.post('NodeWorker.sendMessageToWorker', { ...toWorker, message: JSON.stringify(message) });
  } finally {
    inspector.close();
  }
}

interface AttachedToWorker {
  sessionId: string;
  workerInfo: { title: string };
}

/** The few calls made of an inspector: this process's own, or another process's over its WebSocket. */
export interface Inspector {
  post(method: string, params: object): Promise<void>;
  on(event: string, listener: (params: AttachedToWorker) => void): void;
  close(): void;
}

function ownInspector(): Inspector {
  const session = new Session();
  session.connect();
  return {
    post: (method, params) =>
      new Promise((resolve, reject) => session.post(method, params, (error) => (error ? reject(error) : resolve()))),
    on: (event, listener) => session.on(event, (message: { params: AttachedToWorker }) => listener(message.params)),
    close: () => session.disconnect(),
  };
}

/** Another process's inspector at its WebSocket URL (the `Debugger listening on ws://…` line of `--inspect=0`). */
export async function remoteInspector(url: string): Promise<Inspector> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const replies = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, (params: AttachedToWorker) => void>();
  let nextId = 1;
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as {
      id?: number;
      error?: { message: string };
      method?: string;
      params?: AttachedToWorker;
    };
    if (message.id !== undefined) {
      const reply = replies.get(message.id);
      replies.delete(message.id);
      if (message.error) reply?.reject(new Error(message.error.message));
      else reply?.resolve();
    } else if (message.method !== undefined && message.params !== undefined) {
      listeners.get(message.method)?.(message.params);
    }
  });
  return {
    post: (method, params) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        replies.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    on: (event, listener) => listeners.set(event, listener),
    close: () => socket.close(),
  };
}
