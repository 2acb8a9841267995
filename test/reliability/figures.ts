import { appendFileSync } from "node:fs";

/**
 * One measured figure of `npm run test:reliability`, with its goal. Appended as a JSON line to the
 * run's figures file (RELIABILITY_FIGURES, set by vitest.reliability.config.ts); the global teardown
 * (report.ts) prints them all as one table at the end of the run.
 */
export interface Figure {
  suite: string;
  name: string;
  value: number | string;
  goal: string;
  pass: boolean;
}

export function figure(f: Figure): void {
  const file = process.env.RELIABILITY_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify(f)}\n`);
}

/** FAST=1 (CI) runs each suite's reduced size; the full run is the sizes. */
export const FAST = process.env.RELIABILITY_FAST === "1";
