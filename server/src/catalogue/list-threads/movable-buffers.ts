/**
 * The buffers a message can move rather than copy: those that are all of their memory (not Node's shared pool of
 * small Buffers) and not shared memory, which every thread sees anyway.
 */
export function movableBuffers(value: unknown): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const visit = (item: unknown) => {
    if (ArrayBuffer.isView(item)) {
      if (item.buffer instanceof ArrayBuffer && item.byteOffset === 0 && item.byteLength === item.buffer.byteLength) {
        buffers.add(item.buffer);
      }
    } else if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      for (const child of Object.values(item)) visit(child);
    }
  };
  visit(value);
  return [...buffers];
}
