import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ValidationError } from "../errors";
import { parseBody } from "./handler";
import { defineRoute, type RouteDef } from "./route";
import { unknownFields } from "./unknown-fields";

const body = z.object({
  name: z.string().optional(),
  trackOpens: z.boolean().optional(),
  schedule: z.object({ startHour: z.number(), days: z.array(z.number()) }).optional(),
  steps: z.array(z.object({ subject: z.string() })).optional(),
  customFields: z.record(z.string(), z.string()).optional(),
  kind: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]).optional(),
});
const view = z.object({
  id: z.string(),
  name: z.string(),
  trackOpens: z.boolean(),
  createdAt: z.string(),
  leadCount: z.number(),
  schedule: z.object({ startHour: z.number(), days: z.array(z.number()), timezone: z.string() }),
  steps: z.array(z.object({ id: z.string(), subject: z.string() })),
});
const patch = defineRoute({
  method: "PATCH",
  path: "/things/{id}",
  tag: "T",
  access: "write",
  summary: "s",
  body,
  response: { description: "d", schema: view },
});

const cases: { name: string; json: unknown; unknown: string[] }[] = [
  { name: "only known fields", json: { name: "x", trackOpens: true }, unknown: [] },
  { name: "an unknown top-level field", json: { name: "x", skipWeekends: true }, unknown: ["skipWeekends"] },
  { name: "each unknown field, not only the first", json: { foo: 1, bar: 2 }, unknown: ["foo", "bar"] },
  {
    name: "an unknown field in a nested object",
    json: { schedule: { startHour: 9, days: [], endHour: 17 } },
    unknown: ["schedule.endHour"],
  },
  {
    name: "an unknown field in an array item",
    json: { steps: [{ subject: "a" }, { subject: "b", body: "x" }] },
    unknown: ["steps.1.body"],
  },
  { name: "a free-form record's keys are not checked", json: { customFields: { anything: "goes" } }, unknown: [] },
  { name: "a union accepts a key of any of its objects", json: { kind: { b: "x" } }, unknown: [] },
  { name: "a union refuses a key none of its objects has", json: { kind: { c: "x" } }, unknown: ["kind.c"] },
  {
    name: "read-only fields sent back unchanged",
    json: { id: "t1", name: "x", createdAt: "2026-01-01T00:00:00Z", leadCount: 3 },
    unknown: [],
  },
  { name: "a read-only field with a different value (ignored all the same)", json: { id: "another", leadCount: 99 }, unknown: [] },
  {
    name: "nested read-only fields",
    json: { schedule: { startHour: 9, days: [1], timezone: "UTC" }, steps: [{ id: "s1", subject: "a" }] },
    unknown: [],
  },
  { name: "a read-only field of another level is not read-only here", json: { timezone: "UTC" }, unknown: ["timezone"] },
];

describe("unknown body fields", () => {
  it.each(cases)("$name", ({ json, unknown }) => {
    expect(Object.keys(unknownFields(body, [view], json)).sort()).toEqual([...unknown].sort());
  });

  it("names what the route accepts and suggests the field a typo meant", () => {
    const errors = unknownFields(body, [], { trackOpen: true });
    expect(errors.trackOpen[0]).toMatch(/^unknown field \(did you mean trackOpens\?\) — this route accepts here: .*name.*trackOpens/);
  });

  it("parseBody refuses with 400 VALIDATION_ERROR and details.fieldErrors keyed by dotted path", () => {
    let err: unknown;
    try {
      parseBody(patch as RouteDef, { name: "x", schedule: { startHour: 9, days: [], endHour: 1 } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).code).toBe("VALIDATION_ERROR");
    expect(Object.keys(((err as ValidationError).details as { fieldErrors: Record<string, string[]> }).fieldErrors)).toEqual([
      "schedule.endHour",
    ]);
  });

  it("parseBody ignores read-only fields: they are not in the parsed body", () => {
    expect(parseBody(patch as RouteDef, { id: "t1", name: "x", leadCount: 4 })).toEqual({ name: "x" });
  });

  it("a route's fast path (bodyCheck) does not skip the check", () => {
    const fast = { ...patch, bodyCheck: () => true } as RouteDef;
    expect(() => parseBody(fast, { name: "x", nope: 1 })).toThrow(/Unknown field in body: nope/);
    expect(parseBody(fast, { name: "x" })).toEqual({ name: "x" });
  });
});
