import fc from "fast-check";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, type TestWorkspace } from "../helpers";
import { FAST, figure } from "./figures";
import { buildFixture, type Fixture, paramValue } from "./fixture";
import { concrete, type Operation, operations } from "./routes";
import { changed, tableContents } from "./snapshot";

/**
 * Requests generated from every operation's contract (the same zod schemas the
 * OpenAPI document is made of) with fast-check — wrong types, missing and extra fields, huge strings,
 * unicode, nulls, negative and huge numbers, malformed JSON, wrong content types, and bad query
 * values. Every answer is below 500 (or 502 UPSTREAM_ERROR when a real upstream was asked,
 * e.g. new SMTP credentials checked live) and every error has the 2.1 shape; a refused request changes
 * no table's contents (an md5 of every row).
 */
process.env.RATE_LIMIT_DISABLED = "1";
process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";

const RUNS_PER_OPERATION = FAST ? 8 : 16;

let ws: TestWorkspace;
let fx: Fixture;
let ops: Operation[];
beforeAll(async () => {
  ws = await makeWorkspace("fuzz");
  fx = await buildFixture(ws, "f");
  ops = await operations();
});

/** Values of every wrong kind a client could send for a field. */
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 53 + 1, 0.5, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "\uFFFF", "\uD800", "💥".repeat(100), "../../etc/passwd", "' or 1=1 --", "<script>alert(1)</script>"),
  fc.constantFrom("x".repeat(100_000), "é".repeat(20_000)),
  fc.constantFrom("2026-13-45", "not-a-date", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "Europe/Nowhere"),
  fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxKeys: 3 }),
);

/** The top-level property names of an object schema (none for other shapes). */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, unknown> };
  return Object.keys(json.properties ?? {});
}

type Generated = { kind: string; body?: string; contentType?: string; query?: string };

/** A bad request body for the operation: wrong or missing fields, extra fields, wrong shapes, broken JSON or content types. */
function badBody(fields: string[]): fc.Arbitrary<Generated> {
  const names = fields.length ? fields : ["x"];
  const json = (v: unknown) => JSON.stringify(v) ?? "null";
  return fc.oneof(
    fc
      .dictionary(fc.constantFrom(...names), badValue, { minKeys: 1, maxKeys: names.length })
      .map((o) => ({ kind: "wrong fields", body: json(o) })),
    fc
      .tuple(fc.dictionary(fc.constantFrom(...names), badValue, { maxKeys: 2 }), fc.string({ minLength: 1, maxLength: 12 }), badValue)
      .map(([o, k, v]) => ({ kind: "extra field", body: json({ ...o, [`extra_${k}`]: v }) })),
    badValue.map((v) => ({ kind: "wrong shape", body: json(Array.isArray(v) || v === null || typeof v !== "object" ? v : [v]) })),
    fc
      .constantFrom("{", '{"a":', "[1,2", "nul", "{'a':1}", "\u0000", '{"a":1}}', "[".repeat(5000), '{"__proto__":{"x":1}}', "")
      .map((b) => ({ kind: "malformed JSON", body: b })),
    fc
      .tuple(
        fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml"),
        badValue,
      )
      .map(([contentType, v]) => ({ kind: "wrong content type", body: json({ [names[0]]: v }), contentType })),
  );
}

/** Bad query strings: wrong types and hostile values for the operation's query fields, repeated keys. */
function badQuery(fields: string[]): fc.Arbitrary<Generated> {
  const names = fields.length ? fields : ["page"];
  const value = fc.oneof(
    fc.constantFrom("-1", "0", "1e309", "NaN", "abc", "", "99999999999999999999", "2026-02-30", "true", "%", "%00"),
    fc.string({ unit: "grapheme", maxLength: 20 }),
    fc.constant("x".repeat(20_000)),
  );
  return fc
    .array(fc.tuple(fc.constantFrom(...names), value), { minLength: 1, maxLength: 4 })
    .map((pairs) => ({ kind: "bad query", query: pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&") }));
}

async function send(op: Operation, g: Generated) {
  const params = Object.fromEntries(op.params.map((n) => [n, paramValue(fx, op.rel, n) ?? "x_0000000000"]));
  const headers: Record<string, string> = { authorization: `Bearer ${ws.fullKey}` };
  if (g.body !== undefined) headers["content-type"] = g.contentType ?? "application/json";
  const path = `${concrete(op.rel, params)}${g.query ? `?${g.query}` : ""}`;
  return call(op.handler, op.method, path, { headers, params, rawBody: g.body });
}

describe("generated bad input on every operation", () => {
  it("never answers 5xx, always in the 2.1 shape, and a refused request writes nothing", async () => {
    const bad: string[] = [];
    const kinds = new Map<string, number>();
    let requests = 0;
    let refused = 0;
    let upstream = 0;
    for (const [i, op] of ops.filter((o) => o.def.credential !== "session").entries()) {
      const arb = op.method === "GET" || op.method === "DELETE" ? badQuery(fieldsOf(op.def.query)) : badBody(fieldsOf(op.def.body));
      await fc.assert(
        fc.asyncProperty(arb, async (g) => {
          const before = await tableContents();
          const r = await send(op, g);
          requests++;
          kinds.set(g.kind, (kinds.get(g.kind) ?? 0) + 1);
          const at = `${op.method} /${op.rel} (${g.kind}: ${(g.body ?? g.query ?? "").slice(0, 80)})`;
          // 502 UPSTREAM_ERROR is the answer when a real upstream refused (a changed SMTP password is checked live).
          if (r.status === 502 && r.body?.code === "UPSTREAM_ERROR") upstream++;
          else if (r.status >= 500) bad.push(`${at}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          if (r.status < 400) return;
          refused++;
          if (typeof r.body?.error !== "string" || !/^[A-Z_]+$/.test(r.body?.code ?? ""))
            bad.push(`${at}: not the 2.1 shape: ${JSON.stringify(r.body).slice(0, 200)}`);
          const diff = changed(before, await tableContents());
          if (diff.length) bad.push(`${at}: refused (${r.status}) but wrote ${diff.join(", ")}`);
        }),
        { numRuns: RUNS_PER_OPERATION, seed: 18_000 + i },
      );
    }
    const perKind = [...kinds].map(([k, n]) => `${k} ${n}`).join(", ");
    figure({
      suite: "bad-input",
      name: `generated requests (${perKind})`.slice(0, 58),
      value: requests,
      goal: FAST ? "≥ 1,000 (fast)" : "≥ 2,000",
      pass: true,
    });
    figure({ suite: "bad-input", name: "refused requests (4xx)", value: refused - upstream, goal: "-", pass: true });
    figure({ suite: "bad-input", name: "502 UPSTREAM_ERROR (a live check of new credentials)", value: upstream, goal: "-", pass: true });
    figure({ suite: "bad-input", name: "5xx, shape violations, partial writes", value: bad.length, goal: "0", pass: !bad.length });
    expect(bad).toEqual([]);
    expect(requests).toBeGreaterThanOrEqual(FAST ? 1000 : 2000);
  });
});
