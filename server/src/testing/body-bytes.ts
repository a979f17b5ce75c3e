import { readFileSync } from 'node:fs';
import type { BodyBytes } from '../bodies/encoded-body.js';

/** One encoding's bytes of a body, whether held in memory or in a file (a large list's: catalogue/list/list-files.ts). */
export function bytesOf(bytes: BodyBytes): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : readFileSync(bytes.path);
}
