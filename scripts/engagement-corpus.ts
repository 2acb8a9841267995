/**
 * Builds test/fixtures/engagement-corpus.json: tracking hits (pixel opens and link clicks) labelled with
 * who really made them — a person ("human", Gmail's and Yahoo's image proxies included, as they fetch when
 * someone opens the message), a prefetch made whether or not anyone reads ("proxy": Apple Mail Privacy
 * Protection) or a machine ("scanner": security gateways, link checkers, preview bots, scripts).
 *
 * Each scenario is an explicit timeline of one or more emails and their hits (scripts/engagement-corpus-scenarios.ts).
 * The context of every hit — opens before it, other links and hits of its email within BURST_SECONDS, other
 * emails hit from its network within RANGE_SECONDS — is computed here from those timelines, the way the
 * settling pass computes it from the tracking log. Scenarios are laid a day apart so they never share a
 * window; emails marked `emit: false` take part in the context (a gateway sweeping forty leads) but their
 * hits are not written. No randomness: the same scenarios always give the same file.
 *
 * Run: npm run corpus:engagement
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { BURST_SECONDS, type HitFacts, ipRangeOf, RANGE_SECONDS } from "../lib/analytics/engagement-facts";
import { SCENARIOS } from "./engagement-corpus-scenarios";

export type Label = "human" | "proxy" | "scanner";

/** One request on an email's timeline, `t` seconds after the receiving server accepted it. */
export interface PlannedHit {
  t: number;
  kind: "OPEN" | "CLICK";
  method: "GET" | "HEAD";
  /** Which link of the email (clicks only). */
  link?: string;
  userAgent: string | null;
  ip: string | null;
  label: Label;
  /** Who or what made this request, in a few words. */
  who: string;
}

export interface PlannedEmail {
  /** Seconds from the scenario's start to the email's acceptance. */
  sentAt: number;
  hits: PlannedHit[];
  /** false: the hits shape other hits' context but are not written to the corpus. */
  emit?: boolean;
  /** false: the acceptance time was not recorded, so secondsSinceSent is null. */
  sentKnown?: boolean;
}

export interface Scenario {
  name: string;
  emails: PlannedEmail[];
}

export interface CorpusHit {
  id: string;
  scenario: string;
  label: Label;
  facts: HitFacts;
}

interface Placed {
  email: number;
  order: number;
  at: number;
  range: string | null;
  hit: PlannedHit;
  plan: PlannedEmail;
  scenario: string;
}

/** Thirty days between scenarios: further apart than any window, so scenarios never see each other. */
const SCENARIO_GAP = 86_400 * 30;

function place(scenarios: readonly Scenario[]): Placed[] {
  const placed: Placed[] = [];
  let email = 0;
  scenarios.forEach((s, si) => {
    for (const plan of s.emails) {
      plan.hits.forEach((hit, order) => {
        const at = si * SCENARIO_GAP + plan.sentAt + hit.t;
        placed.push({ email, order, at, range: ipRangeOf(hit.ip), hit, plan, scenario: s.name });
      });
      email++;
    }
  });
  return placed;
}

function before(a: Placed, b: Placed): boolean {
  return a.at < b.at || (a.at === b.at && a.order < b.order);
}

/** The facts of one hit, its context taken from every placed hit (emitted or not). */
export function factsOf(x: Placed, all: readonly Placed[]): HitFacts {
  const mine = all.filter((y) => y.email === x.email && y !== x);
  const near = mine.filter((y) => Math.abs(y.at - x.at) <= BURST_SECONDS);
  const links = new Set(near.filter((y) => y.hit.kind === "CLICK" && y.hit.link !== x.hit.link).map((y) => y.hit.link));
  const emails = new Set(
    x.range === null
      ? []
      : all.filter((y) => y.email !== x.email && y.range === x.range && Math.abs(y.at - x.at) <= RANGE_SECONDS).map((y) => y.email),
  );
  return {
    kind: x.hit.kind,
    method: x.hit.method,
    userAgent: x.hit.userAgent,
    ip: x.hit.ip,
    secondsSinceSent: x.plan.sentKnown === false ? null : x.hit.t,
    opensBefore: mine.filter((y) => y.hit.kind === "OPEN" && before(y, x)).length,
    otherLinksNearby: links.size,
    otherHitsNearby: near.length,
    rangeEmailsNearby: emails.size,
  };
}

/** The corpus: every emitted hit, by scenario, email and time, numbered h001…. */
export function buildCorpus(scenarios: readonly Scenario[]): CorpusHit[] {
  const all = place(scenarios);
  const emitted = all
    .filter((p) => p.plan.emit !== false)
    .sort((a, b) => (a.email !== b.email ? a.email - b.email : before(a, b) ? -1 : before(b, a) ? 1 : 0));
  return emitted.map((p, i) => ({
    id: `h${String(i + 1).padStart(3, "0")}`,
    scenario: `${p.scenario} — ${p.hit.who}`,
    label: p.hit.label,
    facts: factsOf(p, all),
  }));
}

function main(): void {
  const corpus = buildCorpus(SCENARIOS);
  const out = path.resolve(import.meta.dirname, "..", "test", "fixtures", "engagement-corpus.json");
  writeFileSync(out, `${JSON.stringify(corpus, null, 2)}\n`);
  const count = (l: Label) => corpus.filter((h) => h.label === l).length;
  const uas = new Set(corpus.map((h) => h.facts.userAgent).filter((u) => u !== null)).size;
  process.stdout.write(
    `${corpus.length} hits (human ${count("human")}, proxy ${count("proxy")}, scanner ${count("scanner")}), ${uas} user agents → ${out}\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
