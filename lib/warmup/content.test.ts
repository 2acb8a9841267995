import { describe, expect, it } from "vitest";
import { answer, greetingName, newConversation, replySubject } from "./content";

/** Ordinary, varied business prose with nothing a filter could key on. */
describe("warmup content", () => {
  const firsts = Array.from({ length: 400 }, () => newConversation("maria.lopez@example.com", "Ann Baker"));
  const answers = Array.from({ length: 400 }, () => answer("maria.lopez@example.com", "Ann Baker"));

  it("varies: many subjects, almost every body different, answers of many kinds", () => {
    expect(new Set(firsts.map((f) => f.subject)).size).toBeGreaterThanOrEqual(30);
    expect(new Set(firsts.map((f) => f.body)).size).toBeGreaterThanOrEqual(390);
    expect(new Set(answers).size).toBeGreaterThanOrEqual(100);
    // No sentence is in every email: no fixed text a filter could match.
    const sentences = (t: string) => t.split(/(?<=[.!?])\s+|\n+/).filter((x) => x.trim().length > 20);
    const counts = new Map<string, number>();
    for (const f of firsts) for (const x of new Set(sentences(f.body))) counts.set(x, (counts.get(x) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeLessThan(firsts.length / 4);
  });

  it("reads as ordinary mail: greets the recipient, signs with the sender, no links, markup, tracking or marker words", () => {
    for (const text of [...firsts.map((f) => `${f.subject}\n${f.body}`), ...answers]) {
      expect(text).not.toMatch(/https?:|www\.|<[a-z/]|warm-?up|outreach|unsubscribe|\{[a-z]+\}/i);
      expect(text).toMatch(/Ann Baker$/);
    }
    expect(firsts.filter((f) => f.body.includes("Maria")).length).toBeGreaterThan(firsts.length / 2);
    expect(greetingName("x9@example.com")).toBe("there");
  });

  it("threads answers under one Re:", () => {
    expect(replySubject("Budget review")).toBe("Re: Budget review");
    expect(replySubject("Re: Budget review")).toBe("Re: Budget review");
  });
});
