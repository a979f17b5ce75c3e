// deploy/sizing.mjs's way in to the harness (harness.mjs).
export { get, waitFor200 } from './harness.mjs';
