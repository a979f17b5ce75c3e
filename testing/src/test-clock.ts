/** A clock that only moves when a test says so. */
export interface TestClock {
  readonly now: () => number;
  advanceSeconds(seconds: number): void;
}

export function createTestClock(start = Date.UTC(2025, 0, 1)): TestClock {
  let now = start;
  return {
    now: () => now,
    advanceSeconds(seconds) {
      now += seconds * 1000;
    },
  };
}
