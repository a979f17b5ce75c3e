// deploy/sizing.mjs's way in to the harness (harness.mjs).
export { cpuSeconds, freePort, killChildrenOnExit, peakRssMb, startNode, stopAllProcesses } from './harness.mjs';
