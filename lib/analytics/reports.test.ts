import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { campaignLeads, campaigns, leads, leadTags, tags } from "@/db/schema";
import { GET as LEADS_CSV } from "@/app/api/v1/reports/leads.csv/route";
import { GET as BRANDED } from "@/app/api/v1/reports/branded/route";
import { GET as GET_BRANDING, PUT as PUT_BRANDING } from "@/app/api/v1/settings/branding/route";
import { newId } from "@/lib/ids";
import { addMember, call, makeWorkspace } from "@/test/helpers";
import { csvText, neutralise } from "./csv";
import { brandedReportSchema, brandingResponseSchema } from "./schemas";

describe("CSV cells", () => {
  it("neutralises cells a spreadsheet would run as a formula, and quotes per RFC 4180 with CRLF", () => {
    expect(["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "\rx", "a=b", "plain"].map(neutralise)).toEqual([
      "'=1+1",
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      "a=b",
      "plain",
    ]);
    expect(csvText([["Acme, Inc", 'say "hi"', "two\nlines", 3, null, true]], ["a", "b", "c", "d", "e", "f"])).toBe(
      'a,b,c,d,e,f\r\n"Acme, Inc","say ""hi""","two\nlines",3,,true\r\n',
    );
  });
});

/** A tiny RFC 4180 reader for the test (quoted fields, doubled quotes, CRLF records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (quoted || (ch !== "," && ch !== "\r")) cell += ch;
    else if (ch === ",") endCell();
    else {
      endCell();
      rows.push(row);
      row = [];
      i++; // the LF of CRLF
    }
  }
  return rows;
}

describe("GET /reports/leads.csv", () => {
  it("streams the matching leads with custom fields as columns, neutralised, as an attachment; filters; owner or admin only", async () => {
    const ws = await makeWorkspace();
    const db = getDb();
    const given: Omit<typeof leads.$inferInsert, "id" | "workspaceId">[] = [
      {
        email: "a@csv.test",
        firstName: '=HYPERLINK("http://evil")',
        companyName: "Acme, Inc",
        customFields: { plan: "pro", note: "two\nlines" },
      },
      { email: "b@csv.test", firstName: "Zoë", customFields: { plan: "-free", email: "x" } },
      { email: "c@csv.test" },
    ];
    const ld = given.map((l) => ({ id: newId("lead"), workspaceId: ws.workspaceId, ...l }));
    await db.insert(leads).values(ld);
    const cmp = { id: newId("cmp"), workspaceId: ws.workspaceId, name: "C" };
    await db.insert(campaigns).values(cmp);
    await db.insert(campaignLeads).values([
      { workspaceId: ws.workspaceId, campaignId: cmp.id, leadId: ld[0].id, status: "REPLIED" },
      { workspaceId: ws.workspaceId, campaignId: cmp.id, leadId: ld[1].id },
    ]);
    const tag = { id: newId("tag"), workspaceId: ws.workspaceId, name: "vip" };
    await db.insert(tags).values(tag);
    await db.insert(leadTags).values({ workspaceId: ws.workspaceId, leadId: ld[2].id, tagId: tag.id });

    const all = await call(LEADS_CSV, "GET", "/reports/leads.csv", { key: ws.readKey });
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(all.headers.get("content-disposition")).toBe('attachment; filename="leads.csv"');
    const [head, ...rows] = parseCsv(all.body);
    expect(head.slice(0, 3)).toEqual(["id", "email", "firstName"]);
    expect(head.slice(-3)).toEqual(["custom:email", "note", "plan"]);
    const byEmail = Object.fromEntries(rows.map((r) => [r[1], Object.fromEntries(head.map((h, i) => [h, r[i]]))]));
    expect(Object.keys(byEmail).sort()).toEqual(["a@csv.test", "b@csv.test", "c@csv.test"]);
    expect(byEmail["a@csv.test"]).toMatchObject({
      firstName: '\'=HYPERLINK("http://evil")',
      companyName: "Acme, Inc",
      note: "two\nlines",
      plan: "pro",
    });
    expect(byEmail["b@csv.test"]).toMatchObject({ firstName: "Zoë", plan: "'-free", "custom:email": "x" });

    const only = async (q: string) =>
      parseCsv((await call(LEADS_CSV, "GET", `/reports/leads.csv?${q}`, { key: ws.readKey })).body)
        .slice(1)
        .map((r) => r[1]);
    expect((await only(`campaignId=${cmp.id}`)).sort()).toEqual(["a@csv.test", "b@csv.test"]);
    expect(await only(`campaignId=${cmp.id}&status=REPLIED`)).toEqual(["a@csv.test"]);
    expect(await only(`tagId=${tag.id}`)).toEqual(["c@csv.test"]);
    expect((await call(LEADS_CSV, "GET", "/reports/leads.csv?campaignId=cmp_nope", { key: ws.readKey })).status).toBe(404);
    expect((await call(LEADS_CSV, "GET", "/reports/leads.csv?status=NOPE", { key: ws.readKey })).body.code).toBe("VALIDATION_ERROR");
    // COPY takes its filter as literals: a NUL (which Postgres text cannot hold) is refused up front.
    const nul = await call(LEADS_CSV, "GET", "/reports/leads.csv?tagId=tag%00x", { key: ws.readKey });
    expect([nul.status, nul.body.code]).toEqual([400, "VALIDATION_ERROR"]);

    const member = await addMember(ws.workspaceId, "member");
    expect((await call(LEADS_CSV, "GET", "/reports/leads.csv", { key: member.key })).status).toBe(403);
    const admin = await addMember(ws.workspaceId, "admin");
    expect((await call(LEADS_CSV, "GET", "/reports/leads.csv", { key: admin.key })).status).toBe(200);
  });

  it("refuses more than 50,000 matching leads with 400 VALIDATION_ERROR, and streams exactly 50,000 across batches", async () => {
    const ws = await makeWorkspace();
    await getDb().execute(
      sql`insert into leads (id, workspace_id, email) select 'lead_big' || g, ${ws.workspaceId}, 'l' || g || '@big.test' from generate_series(1, 50000) g`,
    );
    const ok = await call(LEADS_CSV, "GET", "/reports/leads.csv", { key: ws.readKey });
    expect(ok.status).toBe(200);
    const lines = (ok.body as string).trimEnd().split("\r\n");
    expect(lines).toHaveLength(50_001);
    expect(new Set(lines).size).toBe(50_001);
    await getDb().execute(sql`insert into leads (id, workspace_id, email) values ('lead_one_more', ${ws.workspaceId}, 'more@big.test')`);
    const over = await call(LEADS_CSV, "GET", "/reports/leads.csv", { key: ws.readKey });
    expect([over.status, over.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(over.body.error).toContain("50001 leads match");
    // The refused download dropped its temporary copy of the leads and gave its connection back.
    const [{ temps }] = await getDb().$client`select count(*)::int as temps from pg_class where relname = 'leads_csv_rows'`;
    expect(temps).toBe(0);
  });
});

describe("branding and the branded report", () => {
  it("PUT /settings/branding sets only the sent fields (null clears), checks them, owner or admin; the report carries it", async () => {
    const ws = await makeWorkspace("brandco");
    const get = async () => (await call(GET_BRANDING, "GET", "/settings/branding", { key: ws.readKey })).body.branding;
    expect(await get()).toEqual({ name: "brandco", logoUrl: null, primaryColor: null, accentColor: null, footerText: null });
    const put = (body: unknown, key = ws.fullKey) => call(PUT_BRANDING, "PUT", "/settings/branding", { key, body });
    const set = await put({ name: "Agency", logoUrl: "https://cdn.example.com/logo.png", primaryColor: "#112233" });
    expect(set.status).toBe(200);
    expect(set.body.branding).toMatchObject({ name: "Agency", logoUrl: "https://cdn.example.com/logo.png", primaryColor: "#112233" });
    expect((await put({ primaryColor: null })).body.branding).toEqual({
      name: "Agency",
      logoUrl: "https://cdn.example.com/logo.png",
      primaryColor: null,
      accentColor: null,
      footerText: null,
    });
    const bad = await put({ logoUrl: "javascript:alert(1)", primaryColor: "red" });
    expect([bad.status, bad.body.code, Object.keys(bad.body.details.fieldErrors).sort()]).toEqual([
      400,
      "VALIDATION_ERROR",
      ["logoUrl", "primaryColor"],
    ]);
    expect((await put({ name: "x" }, ws.readKey)).status).toBe(403);
    const member = await addMember(ws.workspaceId, "member");
    expect((await put({ name: "x" }, member.key)).status).toBe(403);

    const report = await call(BRANDED, "GET", "/reports/branded?days=7", { key: ws.readKey });
    expect(report.status).toBe(200);
    brandedReportSchema.parse(report.body); // the contract's response schema describes the answer
    brandingResponseSchema.parse(set.body);
    brandingResponseSchema.parse((await call(GET_BRANDING, "GET", "/settings/branding", { key: ws.readKey })).body);
    expect(report.body).toMatchObject({ branding: { name: "Agency" }, overview: { totalSent: 0 }, campaigns: [] });
    expect((await call(BRANDED, "GET", "/reports/branded?days=999", { key: ws.readKey })).body.code).toBe("VALIDATION_ERROR");
  });
});
