import { describe, expect, it } from "vitest";
import { fallbackRewrite, parseRewrite } from "./rewrite";
import { fatigueVerdict, nextStatus, type StepCounts } from "./rule";

const counts = (over: Partial<StepCounts>): StepCounts => ({ sends: 400, leads: 400, firstReplies: 20, recentReplies: 20, ...over });

describe("the copy-fatigue rule at its boundaries", () => {
  it.each([
    // sends: the rates exist from the 200th send on
    {
      name: "199 sends: no rate yet, never RATE_DROP",
      c: counts({ sends: 199, leads: 199, firstReplies: 20, recentReplies: 0 }),
      reasons: [],
      rates: false,
    },
    {
      name: "200 sends with a collapse",
      c: counts({ sends: 200, leads: 200, firstReplies: 20, recentReplies: 9 }),
      reasons: ["RATE_DROP"],
      rates: true,
    },
    {
      name: "200 sends, windows equal",
      c: counts({ sends: 200, leads: 200, firstReplies: 20, recentReplies: 20 }),
      reasons: [],
      rates: true,
    },
    // exactly half is not below half
    { name: "recent exactly half the first", c: counts({ firstReplies: 20, recentReplies: 10 }), reasons: [], rates: true },
    { name: "recent one reply under half", c: counts({ firstReplies: 20, recentReplies: 9 }), reasons: ["RATE_DROP"], rates: true },
    {
      name: "odd first: 21 → 10 is below half (10 < 10.5)",
      c: counts({ firstReplies: 21, recentReplies: 10 }),
      reasons: ["RATE_DROP"],
      rates: true,
    },
    { name: "odd first: 21 → 11 is not", c: counts({ firstReplies: 21, recentReplies: 11 }), reasons: [], rates: true },
    { name: "a first rate of 0 cannot fall", c: counts({ firstReplies: 0, recentReplies: 0 }), reasons: [], rates: true },
    // leads: more than 5,000
    { name: "5,000 leads", c: counts({ sends: 5000, leads: 5000 }), reasons: [], rates: true },
    { name: "5,001 leads", c: counts({ sends: 5001, leads: 5001 }), reasons: ["BODY_OVERUSED"], rates: true },
    {
      name: "5,001 leads under 200 sends? counted by leads alone",
      c: counts({ sends: 10, leads: 5001 }),
      reasons: ["BODY_OVERUSED"],
      rates: false,
    },
    {
      name: "both at once",
      c: counts({ sends: 6000, leads: 5001, firstReplies: 30, recentReplies: 1 }),
      reasons: ["RATE_DROP", "BODY_OVERUSED"],
      rates: true,
    },
  ])("$name", ({ c, reasons, rates }) => {
    const v = fatigueVerdict(c);
    expect(v.reasons).toEqual(reasons);
    if (rates) {
      expect(v.firstRate).toBe(c.firstReplies / 200);
      expect(v.recentRate).toBe(c.recentReplies / 200);
    } else {
      expect(v.firstRate).toBeNull();
      expect(v.recentRate).toBeNull();
    }
  });
});

describe("the status a scan gives", () => {
  const prev = (dismissedReasons: string[], bodyHash = "h1") => ({ bodyHash, dismissedReasons });
  it.each([
    { name: "first scan, fine", p: undefined, hash: "h1", reasons: [], status: "OK", kept: [] },
    { name: "first scan, fatigued", p: undefined, hash: "h1", reasons: ["RATE_DROP"], status: "FATIGUED", kept: [] },
    {
      name: "dismissed, same reason, same body",
      p: prev(["RATE_DROP"]),
      hash: "h1",
      reasons: ["RATE_DROP"],
      status: "DISMISSED",
      kept: ["RATE_DROP"],
    },
    {
      name: "dismissed, a new reason flags again",
      p: prev(["RATE_DROP"]),
      hash: "h1",
      reasons: ["RATE_DROP", "BODY_OVERUSED"],
      status: "FATIGUED",
      kept: ["RATE_DROP"],
    },
    { name: "dismissed, body changed: afresh", p: prev(["RATE_DROP"]), hash: "h2", reasons: ["RATE_DROP"], status: "FATIGUED", kept: [] },
    { name: "dismissed, recovered: dismissal forgotten", p: prev(["RATE_DROP"]), hash: "h1", reasons: [], status: "OK", kept: [] },
  ] as const)("$name", ({ p, hash, reasons, status, kept }) => {
    const out = nextStatus(p ? { ...p, dismissedReasons: [...p.dismissedReasons] } : undefined, hash, [...reasons]);
    expect(out).toEqual({ status, dismissedReasons: kept });
  });
});

describe("rewrites", () => {
  const copy = {
    subject: "Quick idea for {{companyName}} about your outbound pipeline",
    bodyTemplate:
      "Hi {{firstName}},\n\nWe help teams like {{companyName}} book more meetings.\n\nCustomers see 30% more replies in a month.\n\nWorth a 15-minute call next week?\n\nBest,\nSam",
  };

  it("the fallback leads with the ask, keeps greeting, sign-off and every variable, and shortens the subject", () => {
    const r = fallbackRewrite(copy);
    expect(r.bodyTemplate).toBe(
      "Hi {{firstName}},\n\nWorth a 15-minute call next week?\n\nWe help teams like {{companyName}} book more meetings.\n\nCustomers see 30% more replies in a month.\n\nBest,\nSam",
    );
    expect(r.subject).toBe("Quick idea for {{companyName}} about");
    expect(fallbackRewrite({ subject: null, bodyTemplate: "One. Two? Three!" })).toEqual({
      subject: null,
      bodyTemplate: "Three! One. Two?",
    });
    expect(fallbackRewrite({ subject: "Hi", bodyTemplate: "Just one line" }).bodyTemplate).toBe(
      "Just one line\n\nWorth a quick reply either way?",
    );
  });

  it("a model's rewrite is used only as JSON keeping exactly the step's variables", () => {
    const good = JSON.stringify({ subject: "New", body: "Hey {{firstName}}, {{companyName}} could reply more." });
    expect(parseRewrite(`Sure! ${good}`, copy)).toEqual({
      subject: "New",
      bodyTemplate: "Hey {{firstName}}, {{companyName}} could reply more.",
    });
    expect(parseRewrite(JSON.stringify({ subject: "x", body: "Hey {{firstName}}" }), copy)).toBeNull();
    expect(parseRewrite(JSON.stringify({ subject: "x", body: "{{firstName}} {{companyName}} {{title}}" }), copy)).toBeNull();
    expect(parseRewrite("not json", copy)).toBeNull();
    expect(parseRewrite(good, { ...copy, subject: null })?.subject).toBeNull();
  });
});
