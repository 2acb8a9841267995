import { beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { GET, POST } from "./route";
import { DELETE } from "./[id]/route";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

describe("/suppressions", () => {
  it("adds addresses and domains, counts existing ones, reports malformed ones", async () => {
    const r = await call(POST, "POST", "/suppressions", {
      key: ws.fullKey,
      body: { emails: ["A@Example.com", "bad"], domains: ["@Spam.Test", "not a domain"] },
    });
    expect(r.status).toBe(200);
    expect(r.body.added).toBe(2);
    expect(r.body.invalid.map((i: any) => i.value)).toEqual(["bad", "not a domain"]);
    expect(r.body.suppressions.map((s: any) => [s.kind, s.value]).sort()).toEqual([
      ["domain", "spam.test"],
      ["email", "a@example.com"],
    ]);
    const again = await call(POST, "POST", "/suppressions", { key: ws.fullKey, body: { emails: ["a@example.com"] } });
    expect(again.body).toMatchObject({ added: 0, existing: 1 });
    const empty = await call(POST, "POST", "/suppressions", { key: ws.fullKey, body: {} });
    expect(empty.status).toBe(400);
  });

  it("lists with paging and filters, and deletes one entry", async () => {
    const list = await call(GET, "GET", "/suppressions?kind=email", { key: ws.readKey });
    expect(list.body).toMatchObject({ page: 1, limit: 50, total: 1 });
    const id = list.body.suppressions[0].id;
    const other = await makeWorkspace();
    expect((await call(DELETE, "DELETE", "", { key: other.fullKey, params: { id } })).status).toBe(404);
    expect((await call(DELETE, "DELETE", "", { key: ws.fullKey, params: { id } })).status).toBe(200);
    expect((await call(GET, "GET", "/suppressions?kind=email", { key: ws.readKey })).body.total).toBe(0);
    expect((await call(GET, "GET", "/suppressions?limit=500", { key: ws.readKey })).status).toBe(400);
  });
});
