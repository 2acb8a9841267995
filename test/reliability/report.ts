import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Figure } from "./figures";

/** Global setup of the reliability run: empties the figures file, and prints every figure at the end. */
export default function setup() {
  const file = process.env.RELIABILITY_FIGURES;
  if (!file) throw new Error("RELIABILITY_FIGURES is not set (vitest.reliability.config.ts sets it)");
  writeFileSync(file, "");
  return () => {
    if (!existsSync(file)) return;
    const rows = readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Figure);
    const w = (s: string, n: number) => s.padEnd(n).slice(0, n);
    const lines = rows.map(
      (f) => `${w(f.suite, 14)} ${w(f.name, 58)} ${w(String(f.value), 14)} ${w(f.goal, 24)} ${f.pass ? "PASS" : "FAIL"}`,
    );
    const head = `${w("suite", 14)} ${w("figure", 58)} ${w("value", 14)} ${w("goal", 24)} verdict`;
    console.log(`\nReliability figures (${rows.length})\n${head}\n${"-".repeat(head.length)}\n${lines.join("\n")}\n`);
  };
}
