import { beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, addMember, type TestWorkspace } from "@/test/helpers";
import { GET, POST } from "./route";
import { GET as GET_ONE, PATCH } from "./[id]/route";
import { PATCH as BULK_PATCH } from "./bulk/route";
import { POST as BULK_DELETE } from "./bulk-delete/route";
import { POST as ATTACH } from "./[id]/tags/route";
import { DELETE as DETACH } from "./[id]/tags/[tagId]/route";
import { POST as ADD_SUPPRESSIONS } from "../suppressions/route";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

const post = (leads: unknown[], key = ws.fullKey) => call(POST, "POST", "/leads", { key, body: { leads } });

describe("POST /leads", () => {
  it("creates leads and answers leads and leadIds in the order sent, with counts", async () => {
    const r = await post([{ email: "a1@example.com", firstName: "Ann" }, { email: "b1@example.com" }, { email: "c1@example.com" }]);
    expect(r.status).toBe(200);
    expect(r.body.created).toBe(3);
    expect(r.body.updated).toBe(0);
    expect(r.body.leads.map((l: any) => l.email)).toEqual(["a1@example.com", "b1@example.com", "c1@example.com"]);
    expect(r.body.leads.every((l: any) => l.status === "created" && l.id.startsWith("lead_"))).toBe(true);
    expect(r.body.leadIds).toEqual(r.body.leads.map((l: any) => l.id));
  });

  it("merges by email: only sent fields change, empty string clears, customFields merge key by key", async () => {
    const first = await post([
      { email: "merge@example.com", firstName: "Mia", lastName: "Stone", jobTitle: "CTO", customFields: { plan: "pro", city: "Oslo" } },
    ]);
    const id = first.body.leadIds[0];
    const second = await post([{ email: "MERGE@Example.com", lastName: "", customFields: { city: "Bergen", team: "7" } }]);
    expect(second.body.leads[0]).toEqual({ email: "merge@example.com", id, status: "updated" });
    expect(second.body.updated).toBe(1);
    const lead = (await call(GET_ONE, "GET", `/leads/${id}`, { key: ws.fullKey, params: { id } })).body;
    expect(lead.firstName).toBe("Mia"); // not sent: kept
    expect(lead.lastName).toBeNull(); // "" clears
    expect(lead.jobTitle).toBe("CTO");
    expect(lead.customFields).toEqual({ plan: "pro", city: "Bergen", team: "7" });
  });

  it("normalises addresses: trims and lower-cases the domain, and merges whatever the case", async () => {
    const r = await post([{ email: "  Jane.Doe@EXAMPLE.org " }]);
    expect(r.body.leads[0].email).toBe("Jane.Doe@example.org");
    const again = await post([{ email: "jane.doe@example.org", firstName: "Jane" }]);
    expect(again.body.leads[0].id).toBe(r.body.leads[0].id);
    expect(again.body.created).toBe(0);
  });

  it("skips suppressed emails and domains, lists them, and gives them no id", async () => {
    await call(ADD_SUPPRESSIONS, "POST", "/suppressions", {
      key: ws.fullKey,
      body: { emails: ["gone@example.com"], domains: ["blocked.test"] },
    });
    const r = await post([{ email: "ok-sup@example.com" }, { email: "Gone@example.com" }, { email: "x@blocked.test" }]);
    expect(r.body.suppressed).toBe(2);
    expect(r.body.suppressedEmails).toEqual(["Gone@example.com", "x@blocked.test"]);
    expect(r.body.leads.map((l: any) => l.email)).toEqual(["ok-sup@example.com"]);
    expect(r.body.leadIds).toHaveLength(1);
    const list = await call(GET, "GET", "/leads?q=gone@", { key: ws.fullKey });
    expect(list.body.total).toBe(0);
  });

  it("skips an unknown timezone with a warning and still saves the lead", async () => {
    const r = await post([
      { email: "tz@example.com", timezone: "Mars/Olympus", firstName: "Tia" },
      { email: "tz2@example.com", timezone: "Europe/Berlin" },
    ]);
    expect(r.body.created).toBe(2);
    expect(r.body.warnings).toEqual([expect.objectContaining({ index: 0, email: "tz@example.com", field: "timezone" })]);
    expect(r.body.warnings[0].message).toContain("Mars/Olympus");
    const a = (await call(GET_ONE, "GET", "", { key: ws.fullKey, params: { id: r.body.leadIds[0] } })).body;
    const b = (await call(GET_ONE, "GET", "", { key: ws.fullKey, params: { id: r.body.leadIds[1] } })).body;
    expect(a.timezone).toBeNull();
    expect(a.firstName).toBe("Tia");
    expect(b.timezone).toBe("Europe/Berlin");
  });

  it("reports a malformed email per item and saves the rest of the batch", async () => {
    const r = await post([{ email: "good1@example.com" }, { email: "not-an-email" }, { email: "good2@example.com" }]);
    expect(r.status).toBe(200);
    expect(r.body.created).toBe(2);
    expect(r.body.invalid).toBe(1);
    expect(r.body.invalidEmails).toEqual([{ index: 1, email: "not-an-email", reason: expect.stringContaining("not an email") }]);
  });

  it("merges an address repeated within one batch into one lead", async () => {
    const r = await post([
      { email: "dup@example.com", firstName: "One" },
      { email: "dup@example.com", lastName: "Two" },
    ]);
    expect(r.body.created).toBe(1);
    expect(r.body.leadIds[0]).toBe(r.body.leadIds[1]);
    const lead = (await call(GET_ONE, "GET", "", { key: ws.fullKey, params: { id: r.body.leadIds[0] } })).body;
    expect([lead.firstName, lead.lastName]).toEqual(["One", "Two"]);
  });

  it("rejects more than 1,000 leads and wrong types with VALIDATION_ERROR, writing nothing", async () => {
    const before = (await call(GET, "GET", "/leads", { key: ws.fullKey })).body.total;
    const big = await post(Array.from({ length: 1001 }, (_, i) => ({ email: `big${i}@example.com` })));
    expect(big.status).toBe(400);
    expect(big.body.code).toBe("VALIDATION_ERROR");
    expect(big.body.details.fieldErrors.leads[0]).toContain("1,000");
    const typed = await post([{ email: "typed@example.com" }, { email: "t2@example.com", firstName: 42 }]);
    expect(typed.status).toBe(400);
    expect(typed.body.details.fieldErrors["leads.1.firstName"]).toBeDefined();
    const badEnum = await post([{ email: "e@example.com", verificationStatus: "MAYBE" }]);
    expect(badEnum.status).toBe(400);
    expect(Object.keys(badEnum.body.details.fieldErrors)).toEqual(["leads.0.verificationStatus"]);
    expect((await call(GET, "GET", "/leads", { key: ws.fullKey })).body.total).toBe(before);
  });

  it("answers malformed JSON with 400 BAD_REQUEST and the parser's reason", async () => {
    const r = await call(POST, "POST", "/leads", { key: ws.fullKey, rawBody: '{"leads": [' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("BAD_REQUEST");
    expect(r.body.error).toMatch(/Malformed JSON/);
  });

  it("answers an oversized body with 413 PAYLOAD_TOO_LARGE", async () => {
    const huge = JSON.stringify({ leads: [{ email: "x@example.com", firstName: "y".repeat(6 * 1024 * 1024) }] });
    const r = await call(POST, "POST", "/leads", { key: ws.fullKey, rawBody: huge });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe("PAYLOAD_TOO_LARGE");
  });
});

describe("GET /leads", () => {
  it("pages newest first in a fixed order so that every lead comes exactly once", async () => {
    const own = await makeWorkspace();
    for (let b = 0; b < 3; b++) {
      await call(POST, "POST", "/leads", {
        key: own.fullKey,
        body: { leads: Array.from({ length: 70 }, (_, i) => ({ email: `p${b}-${i}@example.com` })) },
      });
    }
    const seen: string[] = [];
    for (let page = 1; page <= 6; page++) {
      const r = await call(GET, "GET", `/leads?page=${page}&limit=40`, { key: own.readKey });
      expect(r.body.total).toBe(210);
      expect(r.body.page).toBe(page);
      expect(r.body.limit).toBe(40);
      seen.push(...r.body.leads.map((l: any) => l.id));
    }
    expect(seen).toHaveLength(210);
    expect(new Set(seen).size).toBe(210);
    const first = await call(GET, "GET", `/leads?limit=1`, { key: own.readKey });
    expect(first.body.leads[0].email).toBe("p2-69@example.com"); // the last one added
  });

  it("filters by q, verificationStatus, espClass and tagId", async () => {
    const own = await makeWorkspace();
    const r = await call(POST, "POST", "/leads", {
      key: own.fullKey,
      body: {
        leads: [
          { email: "zed@acme.io", companyName: "Acme" },
          { email: "amy@other.io", verificationStatus: "VALID" },
          { email: "bob@other.io" },
        ],
      },
    });
    const [zed, amy] = r.body.leadIds;
    await call(ATTACH, "POST", "", { key: own.fullKey, params: { id: zed }, body: { name: "VIP" } });
    const q = await call(GET, "GET", "/leads?q=acme", { key: own.readKey });
    expect(q.body.leads.map((l: any) => l.id)).toEqual([zed]);
    const v = await call(GET, "GET", "/leads?verificationStatus=VALID", { key: own.readKey });
    expect(v.body.leads.map((l: any) => l.id)).toEqual([amy]);
    const e = await call(GET, "GET", "/leads?espClass=UNKNOWN", { key: own.readKey });
    expect(e.body.total).toBe(3);
    const tagId = (await call(GET_ONE, "GET", "", { key: own.readKey, params: { id: zed } })).body.tags[0].id;
    const t = await call(GET, "GET", `/leads?tagId=${tagId}`, { key: own.readKey });
    expect(t.body.leads.map((l: any) => l.id)).toEqual([zed]);
    const bad = await call(GET, "GET", "/leads?espClass=AOL", { key: own.readKey });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fieldErrors.espClass).toBeDefined();
  });

  it("refuses limit above 200 and page below 1", async () => {
    const a = await call(GET, "GET", "/leads?limit=201", { key: ws.readKey });
    expect(a.status).toBe(400);
    expect(a.body.details.fieldErrors.limit[0]).toContain("200");
    const b = await call(GET, "GET", "/leads?page=0", { key: ws.readKey });
    expect(b.status).toBe(400);
    expect(b.body.code).toBe("VALIDATION_ERROR");
  });
});

describe("PATCH /leads/<id>", () => {
  it("changes only the sent fields and rejects an unknown timezone with 400", async () => {
    const r = await post([{ email: "patch@example.com", firstName: "Pat", jobTitle: "CEO" }]);
    const id = r.body.leadIds[0];
    const ok = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id }, body: { jobTitle: "CFO", timezone: "America/New_York" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ firstName: "Pat", jobTitle: "CFO", timezone: "America/New_York" });
    const bad = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id }, body: { timezone: "Nowhere/Land", firstName: "X" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect(bad.body.details.fieldErrors.timezone[0]).toContain("Nowhere/Land");
    const after = await call(GET_ONE, "GET", "", { key: ws.fullKey, params: { id } });
    expect(after.body.firstName).toBe("Pat"); // nothing written
  });

  it("answers 404 with the same body for another workspace's lead as for a random id", async () => {
    const other = await makeWorkspace();
    const theirs = (await call(POST, "POST", "/leads", { key: other.fullKey, body: { leads: [{ email: "theirs@example.com" }] } })).body
      .leadIds[0];
    const a = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id: theirs }, body: { firstName: "Hijack" } });
    const b = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id: "lead_doesnotexist" }, body: { firstName: "Hijack" } });
    expect(a.status).toBe(404);
    expect(a.body).toEqual(b.body);
    const c = await call(GET_ONE, "GET", "", { key: ws.fullKey, params: { id: theirs } });
    expect(c.status).toBe(404);
    const theirsNow = await call(GET_ONE, "GET", "", { key: other.fullKey, params: { id: theirs } });
    expect(theirsNow.body.firstName).toBeNull();
  });

  it("refuses an email already used by another lead with 409", async () => {
    const r = await post([{ email: "one@clash.io" }, { email: "two@clash.io" }]);
    const res = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id: r.body.leadIds[1] }, body: { email: "ONE@clash.io" } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });
});

describe("PATCH /leads/bulk", () => {
  it("finds leads by id or email and reports updated, unchanged and notFound", async () => {
    const r = await post([
      { email: "bulk1@example.com", firstName: "A" },
      { email: "bulk2@example.com", firstName: "B" },
    ]);
    const res = await call(BULK_PATCH, "PATCH", "/leads/bulk", {
      key: ws.fullKey,
      body: {
        leads: [
          { id: r.body.leadIds[0], firstName: "A2" },
          { email: "BULK2@example.com", firstName: "B" },
          { email: "nobody@example.com", firstName: "N" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ updated: 1, unchanged: 1, notFound: 1 });
    const a = await call(GET_ONE, "GET", "", { key: ws.fullKey, params: { id: r.body.leadIds[0] } });
    expect(a.body.firstName).toBe("A2");
  });

  it("rejects the whole batch on an unknown timezone, naming the lead", async () => {
    const r = await post([{ email: "bulktz@example.com", firstName: "Keep" }]);
    const res = await call(BULK_PATCH, "PATCH", "/leads/bulk", {
      key: ws.fullKey,
      body: {
        leads: [
          { id: r.body.leadIds[0], firstName: "Changed" },
          { email: "bulktz@example.com", timezone: "Bad/Zone" },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.fieldErrors["leads.1.timezone"]).toBeDefined();
    const a = await call(GET_ONE, "GET", "", { key: ws.fullKey, params: { id: r.body.leadIds[0] } });
    expect(a.body.firstName).toBe("Keep");
  });

  it("skips a lead whose address is suppressed", async () => {
    const r = await post([{ email: "later-suppressed@example.com", firstName: "S" }]);
    await call(ADD_SUPPRESSIONS, "POST", "/suppressions", { key: ws.fullKey, body: { emails: ["later-suppressed@example.com"] } });
    const res = await call(BULK_PATCH, "PATCH", "/leads/bulk", {
      key: ws.fullKey,
      body: { leads: [{ id: r.body.leadIds[0], firstName: "T" }] },
    });
    expect(res.body).toMatchObject({ updated: 0, suppressed: 1, suppressedEmails: ["later-suppressed@example.com"] });
  });
});

describe("POST /leads/bulk-delete", () => {
  it("is for owners and admins only and deletes the listed leads", async () => {
    const own = await makeWorkspace();
    const ids = (
      await call(POST, "POST", "/leads", {
        key: own.fullKey,
        body: { leads: [{ email: "d1@example.com" }, { email: "d2@example.com" }, { email: "d3@example.com" }] },
      })
    ).body.leadIds;
    const member = await addMember(own.workspaceId, "member");
    const denied = await call(BULK_DELETE, "POST", "/leads/bulk-delete", { key: member.key, body: { leadIds: ids } });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("FORBIDDEN");
    const admin = await addMember(own.workspaceId, "admin");
    const ok = await call(BULK_DELETE, "POST", "/leads/bulk-delete", {
      key: admin.key,
      body: { leadIds: [ids[0], ids[1], "lead_missing"] },
    });
    expect(ok.body).toEqual({ deleted: 2, notFound: 1 });
    const left = await call(GET, "GET", "/leads", { key: own.readKey });
    expect(left.body.leads.map((l: any) => l.id)).toEqual([ids[2]]);
  });

  it("refuses more than 1,000 ids", async () => {
    const r = await call(BULK_DELETE, "POST", "/leads/bulk-delete", {
      key: ws.fullKey,
      body: { leadIds: Array.from({ length: 1001 }, (_, i) => `lead_${i}`) },
    });
    expect(r.status).toBe(400);
  });
});

describe("lead tags", () => {
  it("attaches by name (creating the tag), by id, and detaches", async () => {
    const id = (await post([{ email: "tagged@example.com" }])).body.leadIds[0];
    const a = await call(ATTACH, "POST", "", { key: ws.fullKey, params: { id }, body: { name: "Hot" } });
    expect(a.status).toBe(200);
    expect(a.body.tag.name).toBe("Hot");
    const again = await call(ATTACH, "POST", "", { key: ws.fullKey, params: { id }, body: { tagId: a.body.tag.id } });
    expect(again.body.attached).toBe(false);
    const d = await call(DETACH, "DELETE", "", { key: ws.fullKey, params: { id, tagId: a.body.tag.id } });
    expect(d.body.removed).toBe(true);
    const lead = await call(GET_ONE, "GET", "", { key: ws.fullKey, params: { id } });
    expect(lead.body.tags).toEqual([]);
    const missing = await call(ATTACH, "POST", "", { key: ws.fullKey, params: { id }, body: { tagId: "tag_nope" } });
    expect(missing.status).toBe(404);
  });
});
