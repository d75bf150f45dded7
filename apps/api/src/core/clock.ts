/** The only source of "now" on the server, so tests can pin it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests: starts at `start` and moves only when told. */
export class FixedClock implements Clock {
  private current: number;
  constructor(start: Date | string) {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * A clock that starts at `start` and then runs with real time. It lets an end-to-end test
 * run the real server on a day it chose (QLESS_FAKE_NOW, honoured only under NODE_ENV=test),
 * so "today" cannot turn into tomorrow halfway through the test.
 */
export function clockStartingAt(
  start: Date,
  realNow: () => number = Date.now,
): Clock & { advance: (ms: number) => void } {
  let offset = start.getTime() - realNow();
  return {
    now: () => new Date(realNow() + offset),
    /** Moves the test clock forward (the server does it on SIGUSR2: FAKE_CLOCK_STEP_MS). */
    advance: (ms: number) => {
      offset += Math.max(0, ms);
    },
  };
}

/**
 * How far a test server's clock jumps on each SIGUSR2 (only with QLESS_FAKE_NOW, which needs
 * NODE_ENV=test): a browser test makes the morning pass, e.g. a wait reach the ageing ceiling.
 */
export const FAKE_CLOCK_STEP_MS = 5 * 60_000;
