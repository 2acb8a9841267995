import { describe, expect, it } from "vitest";
import { partnerFor } from "./send";

const p = (...emails: string[]) => emails.map((email) => ({ id: null, email }));

describe("partnerFor: a mailbox's day spread over its partners in turn", () => {
  it.each([
    [2, 6],
    [3, 7],
    [4, 9],
    [5, 5],
  ])("%i partners, %i emails in a day: each gets its share, give or take one", (k, n) => {
    const partners = p(...Array.from({ length: k }, (_, i) => `seed${i}@pool.test`));
    const got = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const to = partnerFor(partners, "mbx_a", "2026-11-03", i)!;
      got.set(to.email, (got.get(to.email) ?? 0) + 1);
    }
    const counts = partners.map((x) => got.get(x.email) ?? 0);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(n);
  });

  it("does not depend on the order the partners were read in", () => {
    const a = p("a@x.test", "b@x.test", "c@x.test");
    for (let i = 0; i < 6; i++)
      expect(partnerFor(a, "mbx_a", "2026-11-03", i)).toEqual(partnerFor([...a].reverse(), "mbx_a", "2026-11-03", i));
  });

  it("mailboxes (and days) start at different partners", () => {
    const partners = p("a@x.test", "b@x.test", "c@x.test", "d@x.test");
    const firsts = new Set(Array.from({ length: 40 }, (_, i) => partnerFor(partners, `mbx_${i}`, "2026-11-03", 0)!.email));
    expect(firsts.size).toBeGreaterThan(1);
    const days = new Set(Array.from({ length: 40 }, (_, i) => partnerFor(partners, "mbx_a", `2026-11-${10 + (i % 20)}`, 0)!.email));
    expect(days.size).toBeGreaterThan(1);
  });

  it("no partner → none", () => {
    expect(partnerFor([], "mbx_a", "2026-11-03", 0)).toBeUndefined();
  });
});
