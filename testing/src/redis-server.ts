import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { findExecutable } from './find-executable.js';
import { freePort } from './free-port.js';

/** A real Redis (Debian's `redis-server`) on a free loopback port, for tests of the shared cache tier. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`, as REDIS_URL takes it. */
  url: string;
  port: number;
  /** Kills it at once (SIGKILL), as a crash or a lost machine would; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Stops it if it still runs. */
  stop(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and commands get no answer, as with a Redis that hangs. */
  pause(): void;
  /** Lets a paused Redis go on (SIGCONT). */
  resume(): void;
}

export const REDIS_INSTALL_HINT = 'apt-get install -y redis-server';

/** The `redis-server` program on PATH (or REDIS_SERVER_PATH), or `undefined` when it is not installed. */
export function findRedisServer(): string | undefined {
  return findExecutable(
    process.env.REDIS_SERVER_PATH
      ? [process.env.REDIS_SERVER_PATH]
      : [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/sbin'].map((dir) => join(dir, 'redis-server')),
  );
}

/**
 * Starts `redis-server` on a free port of 127.0.0.1, with nothing saved to disk, and resolves once it answers PING.
 * Throws, naming the install command, when the program is missing.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const program = findRedisServer();
  if (program === undefined) throw new Error(`redis-server is not installed (${REDIS_INSTALL_HINT})`);
  const port = await freePort();
  const child = spawn(program, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));

  try {
    await waitForPong(port, child);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`redis-server did not start on port ${port}: ${String(error)} ${stderr}`.trim());
  }

  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => end('SIGKILL'),
    stop: () => {
      // A paused process only acts on SIGTERM once it runs again.
      child.kill('SIGCONT');
      return end('SIGTERM');
    },
    pause: () => {
      child.kill('SIGSTOP');
    },
    resume: () => {
      child.kill('SIGCONT');
    },
  };
}

/** Bounded: 100 tries 50 ms apart (redis-server starts in a few milliseconds). */
async function waitForPong(port: number, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    if (await answersPing(port)) return;
    await delay(50);
  }
  throw new Error('no PONG within 5 s');
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => resolve(false));
  });
}
