import { describe, expect, it } from "vitest";
import { type BranchFacts, type BranchRule, branchList, decideAtFor, decideBranch, describeRule, type ReplyIntent } from "./branches";

const sentAt = new Date("2026-12-01T09:00:00Z");
const h = (hours: number) => new Date(sentAt.getTime() + hours * 3_600_000);
const facts = (over: Partial<BranchFacts>): BranchFacts => ({
  now: h(1),
  sentAt,
  decideAt: h(72),
  reply: null,
  opened: false,
  clicked: false,
  ...over,
});
const replied = (intent: ReplyIntent, at = 2) => ({ intent, at: h(at) });

const interested: BranchRule = { when: { replied: ["INTERESTED", "QUESTION"] }, action: { type: "subsequence", subsequenceId: "sub_hot" } };
const notInterested: BranchRule = { when: { replied: ["NOT_INTERESTED"] }, action: { type: "stop" } };
const ooo: BranchRule = { when: { replied: ["OUT_OF_OFFICE"] }, action: { type: "waitUntilReturn" } };
const noReply48: BranchRule = { when: { noReplyAfterHours: 48 }, action: { type: "continue" } };
const opened: BranchRule = { when: { opened: true }, action: { type: "tag", tagId: "tag_warm" } };
const clicked: BranchRule = { when: { clicked: true }, action: { type: "wait", days: 2 } };
const always: BranchRule = { when: { always: true }, action: { type: "stop" } };

type Row = [string, BranchRule[], Partial<BranchFacts>, ReturnType<typeof decideBranch>];
const match = (rules: BranchRule[], index: number) => ({ kind: "matched" as const, index, rule: rules[index] });

const R1 = [interested, notInterested, ooo, noReply48];
const R2 = [clicked, opened, always];
const R3 = [interested, always];
const table: Row[] = [
  ["no rules, no reply yet: wait for the step's delay", [], {}, { kind: "pending", until: h(72) }],
  ["no rules, a reply: stop (as without branches)", [], { reply: replied("INTERESTED") }, { kind: "default", stop: true }],
  ["no rules, silence past the delay: move on", [], { now: h(73) }, { kind: "default", stop: false }],
  ["an interested reply takes the first rule", R1, { reply: replied("INTERESTED") }, match(R1, 0)],
  ["a question matches the same rule (any of its intents)", R1, { reply: replied("QUESTION") }, match(R1, 0)],
  ["not interested takes the second", R1, { reply: replied("NOT_INTERESTED") }, match(R1, 1)],
  ["an out-of-office takes the third", R1, { reply: replied("OUT_OF_OFFICE") }, match(R1, 2)],
  ["a reply no rule names: the default stop", R1, { reply: replied("WRONG_PERSON") }, { kind: "default", stop: true }],
  ["silence: the reply rules wait for the delay", R1, { now: h(47) }, { kind: "pending", until: h(72) }],
  ["silence past 48 h but before the delay: still waiting on the reply rules", R1, { now: h(50) }, { kind: "pending", until: h(72) }],
  ["silence past the delay: no-reply rule", R1, { now: h(72) }, match(R1, 3)],
  ["a no-reply rule first: waits for its own hour", [noReply48, always], { now: h(10) }, { kind: "pending", until: h(48) }],
  ["a no-reply rule first, its hour reached", [noReply48, always], { now: h(48) }, match([noReply48, always], 0)],
  ["a no-reply rule is no once a reply came", [noReply48, always], { reply: replied("INTERESTED") }, match([noReply48, always], 1)],
  ["a click decides at once", R2, { clicked: true, opened: true }, match(R2, 0)],
  ["an open without a click waits for the delay (a click may still come)", R2, { opened: true }, { kind: "pending", until: h(72) }],
  ["an open without a click after the delay", R2, { opened: true, now: h(80) }, match(R2, 1)],
  ["a click counts as an open (images blocked)", [opened], { clicked: true }, match([opened], 0)],
  ["neither, after the delay: the catch-all", R2, { now: h(80) }, match(R2, 2)],
  ["a catch-all after a reply rule waits for the reply rule", R3, { now: h(5) }, { kind: "pending", until: h(72) }],
  ["a catch-all after a reply rule, other reply", R3, { reply: replied("NOT_INTERESTED") }, match(R3, 1)],
  ["a catch-all first decides at once", [always, interested], {}, match([always, interested], 0)],
];

describe("decideBranch", () => {
  it.each(table)("%s", (_name, rules, f, expected) => {
    expect(decideBranch(rules, facts(f))).toEqual(expected);
  });

  it("is pure: the same facts give the same decision", () => {
    const f = facts({ reply: replied("INTERESTED") });
    expect(decideBranch(R1, f)).toEqual(decideBranch(R1, { ...f }));
  });
});

describe("the branch rules' shape", () => {
  it("accepts every when and action", () => {
    expect(branchList.safeParse([...R1, ...R2, { when: { always: true }, action: { type: "assign", userId: "usr_1" } }]).success).toBe(
      true,
    );
  });

  it.each([
    [[{ when: { replied: [] }, action: { type: "stop" } }], "no intent"],
    [[{ when: { replied: ["HAPPY"] }, action: { type: "stop" } }], "unknown intent"],
    [[{ when: { opened: true, clicked: true }, action: { type: "stop" } }], "two conditions in one rule"],
    [[{ when: { always: true }, action: { type: "jump" } }], "unknown action"],
    [[{ when: { always: true }, action: { type: "wait" } }], "wait without days"],
    [[{ when: { always: true }, action: { type: "subsequence" } }], "subsequence without its id"],
    [[{ when: { noReplyAfterHours: 0 }, action: { type: "stop" } }], "zero hours"],
  ] as [unknown, string][])("refuses %j (%s)", (rules, _why) => {
    expect(branchList.safeParse(rules).success).toBe(false);
  });
});

describe("when silence is final", () => {
  it("is the next step's delay, else the longest no-reply rule, else three days", () => {
    expect(decideAtFor(sentAt, 24, [noReply48])).toEqual(h(24));
    expect(decideAtFor(sentAt, null, [noReply48, { when: { noReplyAfterHours: 96 }, action: { type: "stop" } }])).toEqual(h(96));
    expect(decideAtFor(sentAt, null, [])).toEqual(h(72));
  });

  it("names each rule in words", () => {
    expect([interested, noReply48, opened, clicked, always].map((r) => describeRule(r.when))).toEqual([
      "replied INTERESTED or QUESTION",
      "no reply after 48 h",
      "opened",
      "clicked",
      "always",
    ]);
  });
});
