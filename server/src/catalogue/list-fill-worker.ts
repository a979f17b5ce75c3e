/**
 * The thread of one fill (list-fill.ts): it is started with its job, posts what it made (moving its buffers) and is
 * then ended by the thread that started it (list-keeper.ts), its whole heap with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type FillJob, runFill } from './list-fill.js';
import { movableBuffers } from './movable-buffers.js';

const outcome = await runFill(workerData as FillJob);
parentPort?.postMessage(outcome, movableBuffers(outcome));
