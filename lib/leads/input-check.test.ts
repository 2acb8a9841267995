import { describe, expect, it } from "vitest";
import { isPlainCreateLeadsBody } from "./input-check";
import { createLeadsBody } from "./schemas";

const lead = (over: Record<string, unknown> = {}) => ({
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  companyName: "Engines",
  companyDomain: "engines.example",
  phoneNumber: "+15550000001",
  jobTitle: "Engineer",
  timezone: "Europe/Berlin",
  customFields: { source: "bench", plan: "pro", seats: 3, trial: false, gone: null },
  verificationStatus: "VALID",
  ...over,
});
const body = (...leads: unknown[]) => ({ leads });
const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, "x"]));

/** Bodies the check must accept: zod returns each unchanged. */
const plain: [string, unknown][] = [
  ["a full lead", body(lead())],
  ["only an email", body({ email: "x" })],
  ["nulls clear fields", body(lead({ firstName: null, timezone: null, companyDomain: null }))],
  ["empty strings", body(lead({ firstName: "", customFields: { a: "" } }))],
  ["limits exactly", body(lead({ email: "e".repeat(1000), jobTitle: "j".repeat(1000), timezone: "t".repeat(100) }))],
  ["custom field limits exactly", body(lead({ customFields: { ["n".repeat(100)]: "v".repeat(10_000), ...fields(199) } }))],
  ["names with inner spaces and symbols", body(lead({ customFields: { "a b": 1, "x.y-z": true, "1": "numeric key" } }))],
  ["1,000 leads", { leads: Array.from({ length: 1000 }, (_, i) => lead({ email: `l${i}@example.com` })) }],
];

/** Bodies zod refuses or changes (strips a key): the check must leave them to zod. */
const notPlain: [string, unknown][] = [
  ["not an object", []],
  ["null body", null],
  ["an extra top-level key", { leads: [lead()], extra: 1 }],
  ["no leads", {}],
  ["leads not an array", { leads: lead() }],
  ["no lead", body()],
  ["1,001 leads", { leads: Array.from({ length: 1001 }, () => lead()) }],
  ["a lead that is null", body(null)],
  ["a lead that is an array", body([lead()])],
  ["no email", body({ firstName: "A" })],
  ["email null", body(lead({ email: null }))],
  ["email a number", body(lead({ email: 5 }))],
  ["email too long", body(lead({ email: "e".repeat(1001) }))],
  ["an unknown lead key", body(lead({ nickname: "A" }))],
  ["a text field too long", body(lead({ companyName: "c".repeat(1001) }))],
  ["a text field a number", body(lead({ phoneNumber: 5550000 }))],
  ["timezone too long", body(lead({ timezone: "t".repeat(101) }))],
  ["unknown status", body(lead({ verificationStatus: "GREAT" }))],
  ["status null", body(lead({ verificationStatus: null }))],
  ["customFields null", body(lead({ customFields: null }))],
  ["customFields an array", body(lead({ customFields: ["a"] }))],
  ["an empty field name", body(lead({ customFields: { "": "v" } }))],
  ["a name starting with a space", body(lead({ customFields: { " a": "v" } }))],
  ["a name with a brace", body(lead({ customFields: { "a{b": "v" } }))],
  ["a name too long", body(lead({ customFields: { ["n".repeat(101)]: "v" } }))],
  ["201 custom fields", body(lead({ customFields: fields(201) }))],
  ["a value too long", body(lead({ customFields: { a: "v".repeat(10_001) } }))],
  ["an object value", body(lead({ customFields: { a: { b: 1 } } }))],
  ["an array value", body(lead({ customFields: { a: [1] } }))],
  ["an infinite value (JSON 1e999)", JSON.parse('{"leads":[{"email":"a@b.co","customFields":{"a":1e999}}]}')],
  ["a __proto__ field", JSON.parse('{"leads":[{"email":"a@b.co","customFields":{"__proto__":"x"}}]}')],
  ["a __proto__ lead key", JSON.parse('{"leads":[{"email":"a@b.co","__proto__":{"firstName":"x"}}]}')],
  ["a lead without a prototype", body(Object.assign(Object.create(null), lead()))],
];

describe("isPlainCreateLeadsBody", () => {
  it.each(plain)("accepts %s, which zod returns unchanged", (_, b) => {
    expect(isPlainCreateLeadsBody(b)).toBe(true);
    const r = createLeadsBody.safeParse(b);
    expect(r.success).toBe(true);
    expect(r.data).toStrictEqual(b);
  });

  it.each(notPlain)("leaves %s to zod", (_, b) => {
    expect(isPlainCreateLeadsBody(b)).toBe(false);
  });

  it("never accepts a body zod would refuse or change (mutations of a plain body)", () => {
    const values: unknown[] = [null, "", "x", "y".repeat(101), "z".repeat(1001), 0, 1.5, true, {}, [], { a: "b" }, "VALID"];
    const keys = ["email", "firstName", "timezone", "verificationStatus", "customFields", "other"];
    for (const k of keys) {
      for (const v of values) {
        const b = body(lead({ [k]: v }));
        if (!isPlainCreateLeadsBody(b)) continue;
        const r = createLeadsBody.safeParse(b);
        expect(r.success, `${k} = ${JSON.stringify(v)}`).toBe(true);
        expect(r.data, `${k} = ${JSON.stringify(v)}`).toStrictEqual(b);
      }
    }
  });
});
