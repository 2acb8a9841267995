import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findMalformed, renderStep, renderSubject } from "./render";
import { choiceOf, parseSpintax, restoreLiterals, spin, spintaxProblems } from "./spintax";

const key = (leadId: string, index = 0) => ({ leadId, stepId: "step-1", part: "body" as const, index });
const spun = (t: string, leadId = "lead-1", index = 0) => restoreLiterals(spin(t, key(leadId, index)));
const mailbox = { senderName: "Sam", signatureHtml: null };

describe("spintax", () => {
  it.each([
    ["one of the choices", "{Hi|Hello|Hey} there", ["Hi there", "Hello there", "Hey there"]],
    ["nested groups", "{Hi|Hello {there|friend}}", ["Hi", "Hello there", "Hello friend"]],
    ["an empty choice", "Thanks{|!}", ["Thanks", "Thanks!"]],
    ["escaped braces and bars are literal", "\\{a\\|b\\} {x|y}", ["{a|b} x", "{a|b} y"]],
    ["braces without a choice stay as written (CSS)", "<style>p {color: red}</style>", ["<style>p {color: red}</style>"]],
    ["a variable inside a choice", "{Hi {{firstName}}|Hello}", ["Hi {{firstName}}", "Hello"]],
    ["a variable is never a group", "{{firstName}}|{{lastName}}", ["{{firstName}}|{{lastName}}"]],
  ])("%s", (_name, template, allowed) => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add(spun(template, `lead-${i}`));
    expect([...seen].sort()).toEqual([...allowed].sort());
  });

  it("the same lead and step always get the same words; another step may differ", () => {
    const t = "{a|b|c|d|e|f|g|h} {1|2|3|4|5|6|7|8}";
    expect(spun(t, "lead-42")).toBe(spun(t, "lead-42"));
    const otherStep = Array.from({ length: 20 }, (_, i) => restoreLiterals(spin(t, { leadId: `l${i}`, stepId: "step-2", part: "body" })));
    const sameStep = Array.from({ length: 20 }, (_, i) => spun(t, `l${i}`));
    expect(otherStep).not.toEqual(sameStep);
  });

  it("spreads 1,000 leads evenly over the choices (chi-square below the 0.1 % critical value)", () => {
    const choices = ["Hi", "Hello", "Hey", "Good morning", "Greetings"];
    const counts = new Map(choices.map((c) => [c, 0]));
    for (let i = 0; i < 1000; i++) {
      const w = spun(`{${choices.join("|")}}`, crypto.randomUUID());
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    const expected = 1000 / choices.length;
    const chi = [...counts.values()].reduce((s, n) => s + (n - expected) ** 2 / expected, 0);
    // 4 degrees of freedom: 18.47 at p = 0.001. A biased pick (e.g. always the first) is far above it.
    expect(chi).toBeLessThan(18.47);
    expect(Math.min(...counts.values())).toBeGreaterThan(150);
  });

  it("a group's choice depends only on its position, so choosing one never shifts the next", () => {
    const a = spun("{x|y} {1|2|3}", "lead-7").split(" ")[1];
    const b = spun("{x|y {p|q}} {1|2|3}", "lead-7").split(" ").at(-1);
    // Position 1 is the nested group in the second template, so compare through choiceOf directly.
    expect(a).toBe(String(choiceOf(key("lead-7"), 1, 3) + 1));
    expect(b).toBe(String(choiceOf(key("lead-7"), 2, 3) + 1));
  });

  it("spin indexes 0 … widest − 1 show every choice of every group", () => {
    const t = "{a|b|c} {x|y}";
    const { widest } = parseSpintax(t);
    expect(widest).toBe(3);
    const shown = Array.from({ length: widest }, (_, i) => spun(t, "lead-1", i));
    expect(new Set(shown.map((s) => s[0]))).toEqual(new Set(["a", "b", "c"]));
    expect(new Set(shown.map((s) => s[2]))).toEqual(new Set(["x", "y"]));
    expect(spun(t, "lead-1", 0)).toBe(spun(t, "lead-1"));
  });

  it.each([
    ["{Hi|Hello there", "never closed"],
    ["Hi|Hello} there", "no { before it"],
    ["{a|{b|c} d", "never closed"],
  ])("reports unbalanced spintax %j as malformed", (template, what) => {
    expect(spintaxProblems(template).join()).toContain(what);
    expect(findMalformed(template).join()).toContain(what);
  });

  it.each(["{a|b}", "{a|{b|c}}", "p {color: red}", "a | b", "\\{a|b\\}", "{{firstName}} | x"])("finds nothing wrong in %j", (t) => {
    expect(spintaxProblems(t)).toEqual([]);
  });

  it("keeps text without spintax exactly as it is (property)", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/[{}|\\]/.test(s)),
        (s) => spun(s) === s,
      ),
    );
  });

  it("always picks one of a group's choices (property)", () => {
    const word = fc.stringMatching(/^[a-z]{1,6}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 6 }), fc.uuid(), (words, leadId) =>
        words.includes(spun(`{${words.join("|")}}`, leadId)),
      ),
    );
  });
});

describe("spintax in the renderer", () => {
  const lead = { email: "ann@acme.io", firstName: "Ann" };
  const step = {
    subject: "{Quick|Short} question, {{firstName}}",
    bodyTemplate: "{Hi|Hello} {{firstName}},\n\nUse \\{braces\\} freely.",
    bodyHtmlTemplate: "<p>{Hi|Hello} {{firstName}},</p><style>p {margin: 0}</style>",
  };

  it("fills variables inside the chosen words; text and HTML parts with the same groups agree", () => {
    const r = renderStep(step, lead, mailbox, { spin: { leadId: "lead-1", stepId: "s1" } });
    const greeting = r.text.split(" ")[0];
    expect(["Hi", "Hello"]).toContain(greeting);
    expect(r.text).toContain(`${greeting} Ann,`);
    expect(r.text).toContain("Use {braces} freely.");
    expect(r.html).toContain(`<p>${greeting} Ann,</p>`);
    expect(r.html).toContain("p {margin: 0}");
    expect(r.subject).toMatch(/^(Quick|Short) question, Ann$/);
    expect(r.spintax).toEqual({ groups: 3, choices: 2 });
    expect(r.variables.malformed).toEqual([]);
  });

  it("the scheduler's subject is the renderer's subject for the same lead and step", () => {
    for (let i = 0; i < 30; i++) {
      const spinKey = { leadId: `lead-${i}`, stepId: "s1" };
      expect(renderSubject(step.subject, lead, mailbox, { spin: spinKey })).toBe(
        renderStep(step, lead, mailbox, { spin: spinKey }).subject,
      );
    }
  });

  it("a lead's value is never read as spintax", () => {
    const r = renderStep({ subject: null, bodyTemplate: "Hi {{firstName}}" }, { email: "x@y.io", firstName: "{A|B}" }, mailbox);
    expect(r.text).toBe("Hi {A|B}");
  });

  it("reports unbalanced braces in the variables of a render", () => {
    const r = renderStep({ subject: "{Hi|Hello", bodyTemplate: "x" }, lead, mailbox);
    expect(r.variables.malformed.join()).toContain("never closed");
    expect(r.notes.join()).toContain("never closed");
  });
});
