import type { Page } from '@playwright/test';

/** How long after the network goes idle shifts still count: the carousel's start and late photos fall inside it. */
const SETTLE_MS = 2_000;

/** One `layout-shift` entry, with the elements that moved and from where to where, for a readable failure. */
export interface LayoutShift {
  value: number;
  startTime: number;
  sources: string[];
}

/**
 * Loads `path` and returns the layout shifts the page made without input, from the navigation until 2 s after the
 * network went idle (Core Web Vitals' cumulative layout shift, over the whole load). The entries are read with a
 * buffered PerformanceObserver at the end, which works with JavaScript off too: the browser records them whatever
 * the page runs.
 */
export async function layoutShiftsOf(page: Page, path: string): Promise<LayoutShift[]> {
  await page.goto(path, { waitUntil: 'networkidle' });
  return layoutShiftsSoFar(page);
}

/**
 * The layout shifts the page in view has made without input since its navigation, read once the network has been idle
 * for 2 s: for a page the test loads in its own way (e.g. in parts, e2e/support/held-page-relay.ts).
 */
export async function layoutShiftsSoFar(page: Page): Promise<LayoutShift[]> {
  await page.waitForLoadState('networkidle');
  // The measurement window itself (a fixed span after idle, as the metric is defined), not a wait for a state.
  await page.waitForTimeout(SETTLE_MS);
  return page.evaluate(() => {
    const observer = new PerformanceObserver(() => undefined);
    observer.observe({ type: 'layout-shift', buffered: true });
    type Rect = { x: number; y: number; width: number; height: number };
    const entries = observer.takeRecords() as unknown as Array<
      PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: Array<{ node: Node | null; previousRect: Rect; currentRect: Rect }>;
      }
    >;
    observer.disconnect();
    const rect = ({ x, y, width, height }: Rect) => `${Math.round(x)},${Math.round(y)} ${Math.round(width)}×${Math.round(height)}`;
    const describe = (node: Node | null) => {
      if (!(node instanceof Element)) return node?.nodeName ?? '(gone)';
      const classes = [...node.classList].slice(0, 3).join('.');
      return `${node.tagName.toLowerCase()}${classes ? `.${classes}` : ''}${node.textContent ? ` "${node.textContent.trim().slice(0, 30)}"` : ''}`;
    };
    return entries
      .filter((entry) => !entry.hadRecentInput)
      .map((entry) => ({
        value: entry.value,
        startTime: Math.round(entry.startTime),
        sources: entry.sources.map((s) => `${describe(s.node)} from ${rect(s.previousRect)} to ${rect(s.currentRect)}`),
      }));
  });
}

/** Cumulative layout shift: the sum of the shifts' values. */
export function cumulativeShift(shifts: readonly LayoutShift[]): number {
  return shifts.reduce((sum, shift) => sum + shift.value, 0);
}
