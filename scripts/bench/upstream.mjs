// deploy/sizing.mjs's way in to the harness (harness.mjs).
export { startUpstream } from './harness.mjs';
