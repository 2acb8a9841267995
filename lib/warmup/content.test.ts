import { describe, expect, it } from "vitest";
import { answer, expand, greetingName, newConversation, replySubject, signatureName } from "./content";
import { TOPICS } from "./content-topics";
import { ANSWER_LINES, ANSWER_OPENERS, CLOSERS, OPENERS } from "./content-phrases";

/**
 * Ordinary, varied business prose with nothing a filter could key on. The rules (docs/warmup.md): a
 * greeting has a name or a word before its comma; no topic touches money, logins, parcels, banks or
 * urgency; a day of 1,000 emails has no two equal bodies, at least 300 subjects and few repeated phrases.
 */

/** A workspace's warming mailboxes as the job sees them: sender names given or not, addresses that name a person or not. */
const MAILBOXES: { email: string; senderName: string | null }[] = [
  ...[
    ["maria.lopez", "Maria Lopez"],
    ["tom", "Tom Fischer"],
    ["priya.shah", "Priya Shah"],
    ["jonas.weber", null],
    ["lena", null],
    ["a.kowalski", "Anna Kowalski"],
    ["j.smith", null],
    ["sales", null],
    ["info", "Acme Team"],
    ["x9", null],
    ["ops-team", null],
    ["hello", "Hello Studio"],
    ["kofi.mensah", "Kofi Mensah"],
    ["ines_costa", null],
    ["david", "David"],
    ["mei.chen", "Mei Chen"],
    ["bk2024", null],
    ["sophie.martin", "Sophie Martin"],
    ["luis", "Luis Garcia"],
    ["hr", null],
  ].map(([local, name]) => ({ email: `${local}@northwind-example.com`, senderName: name })),
  ...["oskar", "nadia.ali", "support", "r.patel", "clara.b", "qx", "ben.taylor", "yara"].map((l) => ({
    email: `${l}@contoso-example.org`,
    senderName: null,
  })),
];

/** How the warmup job signs: the sender name, or the address's local part when there is none (send.ts, receive.ts). */
const senderOf = (m: (typeof MAILBOXES)[number]) => m.senderName ?? m.email.split("@")[0];

interface Mail {
  subject: string;
  body: string;
  from: (typeof MAILBOXES)[number];
  to: (typeof MAILBOXES)[number];
}

/**
 * One day of warmup mail, generated as the job does: new conversations (newConversation(to, sender)) and
 * answers to about a third of them (answer(to, sender) under replySubject), some answered again, 1,000 in all.
 */
function oneDay(total = 1000): Mail[] {
  const out: Mail[] = [];
  let i = 0;
  while (out.length < total) {
    const from = MAILBOXES[i % MAILBOXES.length];
    const to =
      MAILBOXES[(i * 7 + 3) % MAILBOXES.length] === from
        ? MAILBOXES[(i + 1) % MAILBOXES.length]
        : MAILBOXES[(i * 7 + 3) % MAILBOXES.length];
    i++;
    const first = newConversation(to.email, senderOf(from));
    out.push({ ...first, from, to });
    let [a, b, depth] = [to, from, 1];
    while (out.length < total && depth < 4 && Math.random() < (depth === 1 ? 0.3 : 0.5)) {
      out.push({ subject: replySubject(first.subject), body: answer(b.email, senderOf(a)), from: a, to: b });
      [a, b, depth] = [b, a, depth + 1];
    }
  }
  return out;
}

/** Words a phishing or spam filter watches for, and the topics they stand for; none may appear in warmup mail. */
const DENIED = [
  "invoice",
  "invoices",
  "billing",
  "billed",
  "payment",
  "payments",
  "pay",
  "paid",
  "payable",
  "refund",
  "receipt",
  "overdue",
  "remittance",
  "password",
  "passcode",
  "login",
  "log in",
  "sign in",
  "credentials",
  "account",
  "accounts",
  "security",
  "secure",
  "verify",
  "verification",
  "verified",
  "confirm",
  "confirmation",
  "delivery",
  "deliver",
  "delivered",
  "parcel",
  "package",
  "shipping",
  "shipment",
  "shipped",
  "courier",
  "tracking",
  "wire",
  "bank",
  "banking",
  "transfer",
  "iban",
  "swift",
  "urgent",
  "urgently",
  "immediately",
  "action required",
  "urgent action",
  "suspended",
  "locked",
  "expire",
  "expired",
  "expires",
  "click",
  "link",
  "unsubscribe",
  "free",
  "winner",
  "prize",
  "discount",
  "crypto",
  "bitcoin",
  "gift card",
  "tax",
  "money",
  "cash",
  "credit",
  "card",
  "purchase",
  "order",
  "document",
  "attached",
  "attachment",
  "download",
];
const deniedIn = (text: string) => DENIED.filter((w) => new RegExp(`\\b${w.replace(" ", "\\s+")}\\b`, "i").test(text));

/** Distinct word 5-grams over all 5-grams of the bodies (each body's own 5-grams, lower case, punctuation left out). */
function fiveGramRatio(bodies: string[]): { distinct: number; total: number; ratio: number } {
  const seen = new Set<string>();
  let total = 0;
  for (const b of bodies) {
    const w = b.toLowerCase().match(/[a-z0-9']+/g) ?? [];
    for (let i = 0; i + 5 <= w.length; i++, total++) seen.add(w.slice(i, i + 5).join(" "));
  }
  return { distinct: seen.size, total, ratio: seen.size / total };
}

describe("warmup content", () => {
  const day = oneDay();

  it("a day of 1,000 emails: no two equal bodies, at least 300 subjects, a distinct-5-gram ratio of at least 0.6", () => {
    expect(day).toHaveLength(1000);
    const bodies = new Set(day.map((m) => m.body)).size;
    const subjects = new Set(day.map((m) => m.subject)).size;
    const grams = fiveGramRatio(day.map((m) => m.body));
    console.log(
      `warmup day: ${bodies} distinct bodies of 1000, ${subjects} distinct subjects, 5-gram ratio ${grams.ratio.toFixed(3)} (${grams.distinct}/${grams.total})`,
    );
    expect(bodies).toBe(1000);
    expect(subjects).toBeGreaterThanOrEqual(300);
    expect(grams.ratio).toBeGreaterThanOrEqual(0.6);
    // No sentence is in a large share of the emails: no fixed text a filter could match.
    const counts = new Map<string, number>();
    for (const m of day)
      for (const s of new Set(m.body.split(/(?<=[.!?])\s+|\n+/).filter((x) => x.trim().length > 30)))
        counts.set(s, (counts.get(s) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeLessThan(day.length / 20);
  });

  it("greets with a name or a word before the comma: never a bare 'there,' or ','", () => {
    for (const m of day) {
      const first = m.body.split("\n")[0];
      expect(first).toMatch(/^[A-Z][a-z]+( [A-Za-z]+)*,$/);
      expect(first).not.toMatch(/^there,$/i);
      for (const line of m.body.split("\n")) expect(line, m.body).not.toMatch(/^\s*(there)?\s*,|\s,/i);
      const name = greetingName(m.to.email);
      if (name) expect(first).toContain(name);
      else expect(first).toMatch(/^(Hi|Hello|Hey|Good|Morning)\b/);
    }
    expect(greetingName("x9@example.com")).toBeNull();
    expect(greetingName("sales@example.com")).toBeNull();
    expect(greetingName("maria.lopez@example.com")).toBe("Maria");
    expect(greetingName("j.smith@example.com")).toBeNull();
    // Every greeting a day can pick shows up, named and not.
    expect(new Set(day.map((m) => m.body.split("\n")[0].split(" ")[0])).size).toBeGreaterThanOrEqual(6);
  });

  it("never touches invoices, payments, passwords, security, verification, parcels, banks or urgent action", () => {
    const hits = day.flatMap((m) => deniedIn(`${m.subject}\n${m.body}`));
    expect([...new Set(hits)]).toEqual([]);
    // The word list itself: every choice of every sentence, not only those a day happened to pick.
    for (const x of [
      ...TOPICS.flatMap((t) => [...t.topic, ...t.subjects, ...t.lines]),
      ...OPENERS,
      ...CLOSERS,
      ...ANSWER_OPENERS,
      ...ANSWER_LINES,
    ])
      expect(deniedIn(x), x).toEqual([]);
    expect(deniedIn("About the last invoice")).toEqual(["invoice"]);
    expect(deniedIn("Urgent action required on your bank account")).toContain("urgent action");
  });

  it("reads as ordinary mail: signs with the sender, no links, markup, tracking, marker words or leftover placeholders", () => {
    for (const m of day) {
      const text = `${m.subject}\n${m.body}`;
      expect(text).not.toMatch(/https?:|www\.|<[a-z/]|warm-?up|outreach|\{[a-z0-9]+\}|\[|\]|\| /i);
      const name = signatureName(senderOf(m.from));
      if (name) expect(m.body.endsWith(`\n${name}`)).toBe(true);
      else expect(m.body).toMatch(/\n[A-Z][a-z]+( [a-z]+)*,$/);
    }
    expect(signatureName("Ann Baker")).toBe("Ann Baker");
    expect(signatureName("ann.baker")).toBe("Ann Baker");
    expect(signatureName("x9")).toBeNull();
    expect(signatureName("sales")).toBeNull();
    expect(expand("[a|a] {day}")).toMatch(/^a (Monday|Tuesday|Wednesday|Thursday|Friday)$/);
    const answered = day.filter((m) => m.subject.startsWith("Re: "));
    expect(answered.length).toBeGreaterThan(150);
    expect(new Set(answered.map((m) => m.body)).size).toBe(answered.length);
  });

  it("threads answers under one Re:", () => {
    expect(replySubject("Budget review")).toBe("Re: Budget review");
    expect(replySubject("Re: Budget review")).toBe("Re: Budget review");
  });
});
