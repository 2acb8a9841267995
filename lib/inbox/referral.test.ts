import { describe, expect, it } from "vitest";
import { findReferral } from "./referral";

const SENDER = "tom@acme.com";
const US = "sam@outreach.test";

type Row = [string, string, { email: string | null; name: string | null } | null];
const table: Row[] = [
  [
    "an address after a cue",
    "Hi Sam, I'm not the right person. Please reach out to jane.doe@acme.com instead.",
    { email: "jane.doe@acme.com", name: null },
  ],
  [
    "a name after 'our head of sales is'",
    "Thanks, but our head of sales is Jane Doe. She decides on tools.",
    { email: null, name: "Jane Doe" },
  ],
  [
    "a name and an address in brackets",
    "You should talk to Jane Doe (jane@acme.com), she runs procurement.",
    { email: "jane@acme.com", name: "Jane Doe" },
  ],
  [
    "a name before an address in angle brackets",
    "The right person is Maria Lopez <maria.lopez@acme.com>.",
    { email: "maria.lopez@acme.com", name: "Maria Lopez" },
  ],
  [
    "the right contact is",
    "I left that role last year. The right contact for this is Peter van der Berg.",
    { email: null, name: "Peter van der Berg" },
  ],
  ["handled by", "Marketing tools are handled by Anna Schmidt in our Berlin office.", { email: null, name: "Anna Schmidt" }],
  ["a capitalised address is lower-cased", "Contact J.Smith@Acme.COM please.", { email: "j.smith@acme.com", name: null }],
  ["a title before the name", "Please contact Dr. Helen Brooks about this.", { email: null, name: "Helen Brooks" }],
  [
    "German: wenden Sie sich an",
    "Ich bin dafür nicht zuständig. Bitte wenden Sie sich an Frau Petra Klein.",
    { email: null, name: "Petra Klein" },
  ],
  [
    "German: zuständig ist, with an address",
    "Zuständig ist Jonas Weber, jonas.weber@firma.de.",
    { email: "jonas.weber@firma.de", name: "Jonas Weber" },
  ],
  ["French: contactez", "Je ne suis pas la bonne personne, contactez Claire Martin.", { email: null, name: "Claire Martin" }],
  ["Spanish: la persona adecuada es", "Gracias. La persona adecuada es Lucía Fernández.", { email: null, name: "Lucía Fernández" }],
  ["Dutch: neem contact op met", "Neem contact op met Sanne de Vries, zij gaat hierover.", { email: null, name: "Sanne de Vries" }],
  ["our CTO is", "Not me — our CTO is Raj Patel.", { email: null, name: "Raj Patel" }],
  [
    "an address on its own line after a cue",
    "Please forward this to\nbilling-team@acme.com",
    { email: "billing-team@acme.com", name: null },
  ],
  ["the sender's own address is not a referral", "You can reach me at tom@acme.com but I'm not the right person.", null],
  [
    "our own address quoted back is not a referral",
    "I'm not the buyer.\n\nOn Mon, Dec 1, 2026 Sam <sam@outreach.test> wrote:\n> Hi Tom, contact Jane Doe",
    null,
  ],
  ["a quoted line is not the reply", "Wrong person, sorry.\n> Please reach out to jane@acme.com", null],
  ["a team is not a person", "Please contact Sales Team for this.", null],
  ["no one named", "Sorry, I'm not the right person for this and don't know who is.", null],
  ["a pronoun is not a name", "Talk to Him about it.", null],
  ["the first of two addresses", "Try ana@acme.com or bo@acme.com.", { email: "ana@acme.com", name: null }],
];

describe("findReferral", () => {
  it.each(table)("%s", (_name, text, expected) => {
    const r = findReferral(text, [SENDER, US]);
    if (expected === null) expect(r).toBeNull();
    else expect({ email: r?.email ?? null, name: r?.name ?? null }).toEqual(expected);
  });

  it("keeps the sentence it read the referral from", () => {
    const r = findReferral("Hello. I moved to finance. Our head of sales is Jane Doe. Good luck!", [SENDER]);
    expect(r?.text).toBe("Our head of sales is Jane Doe.");
  });
});
