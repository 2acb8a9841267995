import type { Step } from "./types";

export interface VariantStats {
  sends: number;
  replies: number;
}

/** Variant pick: random, or Thompson sampling on replies ÷ sends when the campaign optimises. */
export function pickVariant(variants: Step[], stats: ReadonlyMap<string, VariantStats>, optimise: boolean, rand = Math.random): Step {
  if (variants.length === 1) return variants[0];
  if (!optimise) return variants[Math.floor(rand() * variants.length)];
  let best = variants[0];
  let bestDraw = -1;
  for (const v of variants) {
    const s = stats.get(v.id) ?? { sends: 0, replies: 0 };
    const draw = betaSample(s.replies + 1, Math.max(0, s.sends - s.replies) + 1, rand);
    if (draw > bestDraw) [best, bestDraw] = [v, draw];
  }
  return best;
}

function gammaSample(k: number, rand: () => number): number {
  // Marsaglia–Tsang for k ≥ 1 (k is always ≥ 1 here).
  const d = k - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      const u1 = rand() || 1e-12;
      const u2 = rand();
      x = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      v = 1 + c * x;
    } while (v <= 0);
    v = v ** 3;
    const u = rand();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

function betaSample(a: number, b: number, rand: () => number): number {
  const x = gammaSample(a, rand);
  return x / (x + gammaSample(b, rand));
}
