/**
 * Runs `callback` once the next frame has been painted: a frame's animation callbacks run just before it is painted,
 * and a task queued from there runs after that paint. What a press starts there no longer holds up the frame that
 * responds to the press (docs/performance.md, "A slower phone").
 */
export function afterNextPaint(callback: () => void): void {
  requestAnimationFrame(() => setTimeout(callback, 0));
}
