import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/leads/route";
import { getDb } from "@/db/client";
import { call, makeWorkspace } from "@/test/helpers";

/**
 * GET /leads?q= narrows by the trigram index over one text of address, names and company, then keeps
 * the rows any one field matches: the same leads, in the same order, as matching field by field — for
 * a rare search (index, then sorted) and a common one (read newest first), on every page.
 */

type Lead = { id: string; email: string; first_name: string | null; last_name: string | null; company_name: string | null; seq: number };

/** The rule itself, on rows in memory: a field, or first and last name together, contains q, whatever the case. */
function matches(l: Lead, q: string): boolean {
  const p = q.toLowerCase();
  const fields = [l.email, l.first_name, l.last_name, l.company_name, `${l.first_name ?? ""} ${l.last_name ?? ""}`];
  return fields.some((f) => f?.toLowerCase().includes(p));
}

describe("lead search", () => {
  it("finds what matching field by field finds, in order, and nothing that only spans two fields", async () => {
    const ws = await makeWorkspace();
    const pg = getDb().$client;
    // 6,000 leads (all of them match "lee": more than the dense-search threshold), a few odd ones.
    await pg`insert into leads (id, workspace_id, email, first_name, last_name, company_name)
      select 'lead_s' || k, ${ws.workspaceId}, 'p' || k || '@mail' || (k % 7) || '.test',
        case when k % 5 = 0 then null else 'Ann' || k end, 'Lee' || k, case when k % 2 = 0 then 'Common Co' else 'Rare ' || k end
      from generate_series(1, 6000) k order by k`;
    await pg`insert into leads (id, workspace_id, email, first_name, last_name, company_name) values
      ('lead_odd1', ${ws.workspaceId}, 'zed@span.test', 'Mary', 'Jones', 'Acme 100%'),
      ('lead_odd2', ${ws.workspaceId}, 'under_score@span.test', null, null, null)`;
    const all = await pg<Lead[]>`select id, email, first_name, last_name, company_name, seq::int as seq
      from leads where workspace_id = ${ws.workspaceId} order by seq desc`;
    const cases = [
      "p4242@",
      "ANN4242 lee",
      "mary jones",
      "common co",
      "mail3",
      "100%",
      "under_s",
      "span.test mary",
      "rare 59",
      "lee1",
      "lee",
      "@",
    ];
    for (const q of cases) {
      const want = all.filter((l) => matches(l, q)).map((l) => l.id);
      for (const page of [1, 2, 40]) {
        const r = await call(GET, "GET", `/leads?q=${encodeURIComponent(q)}&limit=50&page=${page}`, { key: ws.readKey });
        expect(r.status, q).toBe(200);
        expect(r.body.total, q).toBe(want.length);
        expect(
          r.body.leads.map((l: { id: string }) => l.id),
          `${q} page ${page}`,
        ).toEqual(want.slice((page - 1) * 50, page * 50));
      }
    }
  });
});
