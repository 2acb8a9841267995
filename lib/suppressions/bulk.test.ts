import { beforeAll, describe, expect, it } from "vitest";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { GET as LIST, POST as ADD } from "@/app/api/v1/suppressions/route";
import { POST as BULK } from "@/app/api/v1/suppressions/bulk/route";
import { suppressionRoutes } from "@/lib/api/contracts/workspace";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { BULK_SUPPRESSIONS_MAX, classifySuppression } from "./bulk";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

const bulk = (entries: unknown, key = ws.fullKey) => call(BULK, "POST", "/suppressions/bulk", { key, body: { entries } });

describe("POST /suppressions/bulk: one result per entry", () => {
  it("reports added, existing, duplicate and invalid entries in order, and tells addresses from domains", async () => {
    await call(ADD, "POST", "/suppressions", { key: ws.fullKey, body: { emails: ["old@listed.test"] } });
    const r = await bulk([
      { value: "Jo@Acme.test" },
      { value: "@spam.test" },
      { value: "bulkmail.test" },
      { value: "not an address" },
      { value: "jo@acme.test" },
      { value: "OLD@listed.test" },
      { value: "" },
      { value: "Spam.test" },
      { value: "jo@@x" },
      { value: "acme.test", kind: "email" },
    ]);
    expect(r.status).toBe(200);
    expect(suppressionRoutes.bulk.response?.schema?.safeParse(r.body).success).toBe(true);
    expect(r.body.results.map((x: any) => [x.index, x.kind, x.normalized, x.result])).toEqual([
      [0, "email", "jo@acme.test", "added"],
      [1, "domain", "spam.test", "added"],
      [2, "domain", "bulkmail.test", "added"],
      [3, null, null, "invalid"],
      [4, "email", "jo@acme.test", "duplicate"],
      [5, "email", "old@listed.test", "existing"],
      [6, null, null, "invalid"],
      [7, "domain", "spam.test", "duplicate"],
      [8, "email", null, "invalid"],
      [9, "email", null, "invalid"],
    ]);
    expect(r.body).toMatchObject({ added: 3, existing: 1, duplicate: 2, invalid: 4 });
    const errs = r.body.results.map((x: any) => x.error);
    expect(errs[3]).toBe('"not an address" is neither an email address nor a domain');
    expect(errs[4]).toBe("the same email as entry 0");
    expect(r.body.results.map((x: any) => x.duplicateOf)).toEqual([null, null, null, null, 0, null, null, 1, null, null]);
    expect(errs[6]).toBe("the value is empty");
    expect(errs[9]).toContain("is not an email address");
    expect(r.body.results[0].id).toMatch(/^sup_/);
    expect(r.body.results[5].id).toBeNull();

    const listed = (await call(LIST, "GET", "/suppressions?limit=200", { key: ws.readKey })).body.suppressions;
    expect(listed.map((s: any) => [s.kind, s.value, s.reason]).sort()).toEqual([
      ["domain", "bulkmail.test", "import"],
      ["domain", "spam.test", "import"],
      ["email", "jo@acme.test", "import"],
      ["email", "old@listed.test", "manual"],
    ]);
    // Sending the same batch again adds nothing and says so per entry.
    const again = await bulk([{ value: "jo@acme.test" }, { value: "spam.test" }]);
    expect(again.body.results.map((x: any) => x.result)).toEqual(["existing", "existing"]);
  });

  it(`takes at most ${BULK_SUPPRESSIONS_MAX} entries and at least one; a bad entry shape is 400 and nothing is added`, async () => {
    const own = await makeWorkspace();
    const many = Array.from({ length: BULK_SUPPRESSIONS_MAX + 1 }, (_, i) => ({ value: `u${i}@cap.test` }));
    const over = await bulk(many, own.fullKey);
    expect([over.status, over.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(over.body.error).toContain(`at most ${BULK_SUPPRESSIONS_MAX} entries`);
    expect((await bulk([], own.fullKey)).status).toBe(400);
    expect((await bulk([{ value: "a@b.test", kind: "phone" }], own.fullKey)).status).toBe(400);
    expect((await call(LIST, "GET", "/suppressions", { key: own.readKey })).body.total).toBe(0);
    const full = await bulk(many.slice(0, BULK_SUPPRESSIONS_MAX), own.fullKey);
    expect(full.body.added).toBe(BULK_SUPPRESSIONS_MAX);
  });

  it("needs a write: a read key is refused", async () => {
    expect((await bulk([{ value: "r@read.test" }], ws.readKey)).status).toBe(403);
  });
});

describe("classifySuppression", () => {
  it("a value with a local part is an address, a bare or @-prefixed name a domain; a forced kind is checked as that", () => {
    expect(classifySuppression(" Ann@Example.COM ")).toEqual({ kind: "email", normalized: "ann@example.com" });
    expect(classifySuppression("@Example.com")).toEqual({ kind: "domain", normalized: "example.com" });
    expect(classifySuppression("example.com", "domain")).toEqual({ kind: "domain", normalized: "example.com" });
    expect(classifySuppression("ann@example.com", "domain")).toMatchObject({ kind: "domain", error: expect.any(String) });
  });

  it("dates each added entry by the app's clock, as a single add does", async () => {
    const own = await makeWorkspace();
    const at = new Date("2026-03-04T05:06:07.000Z");
    useClock(new ManualClock(at));
    try {
      expect((await bulk([{ value: "dated@clock.test" }], own.fullKey)).status).toBe(200);
    } finally {
      useClock(systemClock);
    }
    const listed = (await call(LIST, "GET", "/suppressions?q=clock.test", { key: own.readKey })).body.suppressions;
    expect(listed.map((s: any) => s.createdAt)).toEqual([at.toISOString()]);
  });
});
