// Loaded only into a server the harness starts `measured` (scripts/bench/harness.mjs: `node --expose-gc
// --import …/measure-hook.mjs`), for the soak and the large catalogue's bench: it answers their questions over the
// IPC channel opened to that child, so nothing is exposed on the network and the server's code knows nothing of it. A server started any other way has no channel and this
// does nothing.
import { readdirSync, readlinkSync } from 'node:fs';

if (typeof process.send === 'function' && typeof globalThis.gc === 'function') {
  process.on('message', (message) => {
    if (message?.type === 'sample') {
      // What the memory is made of right now, without collecting first: for attributing a peak.
      const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
      process.send({ type: 'sampled', id: message.id, rss, heapTotal, heapUsed, external, arrayBuffers });
      return;
    }
    if (message?.type !== 'measure') return;
    // Twice: the first pass can leave objects whose finalisers free more on the second.
    globalThis.gc();
    globalThis.gc();
    const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
    process.send({
      type: 'measured',
      id: message.id,
      heapUsedBytes: heapUsed,
      externalBytes: external,
      arrayBuffersBytes: arrayBuffers,
      rssBytes: rss,
      descriptors: readdirSync('/proc/self/fd').length,
      descriptorKinds: descriptorKinds(),
      resources: process.getActiveResourcesInfo(),
    });
  });
  // The channel must never keep the server alive on its own: it stops as it would without the soak.
  process.channel?.unref();
}

/** Open descriptors by kind (`socket`, `pipe`, `anon_inode:[eventfd]`, a file), so growth says what grew. */
function descriptorKinds() {
  const kinds = {};
  for (const fd of readdirSync('/proc/self/fd')) {
    let kind;
    try {
      kind = readlinkSync(`/proc/self/fd/${fd}`).replace(/:\[\d+\]$/, '');
    } catch {
      continue; // closed between the listing and the look: the one readdir opened, for instance
    }
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}
