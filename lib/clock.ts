/** Time comes from here so that tests can move it (architecture: injectable clock). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock a test sets and advances by hand. */
export class ManualClock implements Clock {
  constructor(private current: Date = new Date("2026-11-02T09:00:00Z")) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(at: Date | string): void {
    this.current = new Date(at);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

let current: Clock = systemClock;
/** The clock request contexts and jobs use. Tests swap it with useClock. */
export function currentClock(): Clock {
  return current;
}
export function useClock(clock: Clock): void {
  current = clock;
}
