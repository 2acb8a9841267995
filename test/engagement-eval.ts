import { classifyHit, countsAsPerson } from "../lib/analytics/engagement";
import type { EngagementClass, HitFacts } from "../lib/analytics/engagement-facts";

/** One labelled hit of test/fixtures/engagement-corpus.json (scripts/engagement-corpus.ts builds it). */
export interface LabelledHit {
  id: string;
  scenario: string;
  label: "human" | "proxy" | "scanner";
  facts: HitFacts;
}

export interface CorpusScore {
  hits: number;
  /** Of the hits counted as a person's (classes human and unknown), the share that were people. */
  precision: number;
  /** Of the people's hits, the share counted as a person's. */
  recall: number;
  /** label → predicted class → hits. */
  confusion: Record<string, Record<EngagementClass, number>>;
  /** The hits classified wrongly (as counted/not counted, or the wrong machine class). */
  wrong: { hit: LabelledHit; got: EngagementClass; reason: string }[];
  /** Hits per deciding rule. */
  byReason: Record<string, number>;
}

/** The classifier over a labelled corpus: precision and recall of the "person" class, and what went wrong. */
export function scoreCorpus(corpus: readonly LabelledHit[]): CorpusScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const confusion: CorpusScore["confusion"] = {};
  const byReason: Record<string, number> = {};
  const wrong: CorpusScore["wrong"] = [];
  for (const hit of corpus) {
    const v = classifyHit(hit.facts);
    const counted = countsAsPerson(v.class);
    const person = hit.label === "human";
    if (counted && person) tp++;
    else if (counted) fp++;
    else if (person) fn++;
    confusion[hit.label] ??= { human: 0, proxy: 0, scanner: 0, unknown: 0 };
    confusion[hit.label][v.class]++;
    byReason[v.reason] = (byReason[v.reason] ?? 0) + 1;
    if (counted !== person || (!person && v.class !== hit.label)) wrong.push({ hit, got: v.class, reason: v.reason });
  }
  return { hits: corpus.length, precision: tp / (tp + fp), recall: tp / (tp + fn), confusion, wrong, byReason };
}
