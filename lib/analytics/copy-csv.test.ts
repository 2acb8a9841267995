import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { leads } from "@/db/schema";
import { systemCtx } from "@/lib/ctx";
import { newId } from "@/lib/ids";
import { makeWorkspace } from "@/test/helpers";
import { csvBytes, csvStart, literal } from "./copy-csv";
import { csvLines } from "./csv";
import { leadsCsv } from "./leads-csv";

const enc = new TextEncoder();
const dec = new TextDecoder();

describe("csvBytes: COPY's CSV → csvLines's bytes (formula prefix, CRLF record ends)", () => {
  // COPY's output for cells: a, "two\nlines", =1+1, "=x,y", -2, \tt, "\rr", "say ""hi""", "", "=""q""" …
  const text = 'a,"two\nlines",=1+1\n"=x,y",-2,\tt\n"\rr","say ""hi""\n",\n@,+,"""=",b\n"=""q""",x\n';
  const want = 'a,"two\nlines",\'=1+1\r\n"\'=x,y",\'-2,\'\tt\r\n"\'\rr","say ""hi""\n",\r\n\'@,\'+,"""=",b\r\n"\'=""q""",x\r\n';

  it("in one chunk", () => {
    const r = csvBytes(enc.encode(text), csvStart());
    expect(dec.decode(r.out)).toBe(want);
    expect(r.state).toEqual(csvStart());
  });

  it("split at every place (the state is carried from chunk to chunk)", () => {
    const bytes = enc.encode(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const a = csvBytes(bytes.subarray(0, cut), csvStart());
      const b = csvBytes(bytes.subarray(cut), a.state);
      expect(dec.decode(a.out) + dec.decode(b.out)).toBe(want);
    }
  });

  it("is what csvLines writes for the same cells", () => {
    const rows = [
      ["a", "two\nlines", "=1+1"],
      ["=x,y", "-2", "\tt"],
      ["\rr", 'say "hi"\n', null],
      ["@", "+", '"=', "b"],
      ['="q"', "x"],
    ];
    expect(dec.decode(csvBytes(enc.encode(text), csvStart()).out)).toBe(csvLines(rows));
  });
});

describe("literal: COPY's parameters written into its text", () => {
  it("round-trips any text through Postgres, dollar tags included", async () => {
    const values = ["plain", "it's", "back\\slash", "$c$", "x$c", "$c0$ and $c$", "$", "", "Zoë 日本", "'; drop table leads; --"];
    for (const v of values) {
      const [row] = await getDb().$client.unsafe(`select ${literal(v)} as v`);
      expect(row.v).toBe(v);
    }
    expect(() => literal("a\0b")).toThrow(/NUL/);
    expect(() => literal(3)).toThrow(/text/);
  });
});

/** The CSV a Response streams, as bytes. */
async function bytesOf(res: Response): Promise<string> {
  return Buffer.from(await res.arrayBuffer()).toString("utf8");
}

describe("leads.csv written by COPY is byte for byte what csvLines writes", () => {
  it("on awkward values: quotes, commas, every line break, formula starts, empty strings, nulls, unicode, custom fields of every JSON type", async () => {
    const ws = await makeWorkspace();
    const db = getDb();
    const awkward = [
      'say "hi"',
      "a,b",
      "two\nlines",
      "cr\ronly",
      "crlf\r\nin",
      "=1+1",
      "+1",
      "-2",
      "@x",
      "\ttab",
      "\rcr",
      "",
      " ",
      "Zoë 日本",
      '"',
      ",",
      "'q",
    ];
    const rows = awkward.map((v, i) => ({
      id: newId("lead"),
      workspaceId: ws.workspaceId,
      email: `l${i}@copy.test`,
      firstName: v,
      lastName: i % 2 ? null : v,
      companyName: `${v}${v}`,
      jobTitle: i % 3 ? v : null,
      customFields: { text: v, [`k${i % 4}`]: v },
    }));
    await db.insert(leads).values(rows);
    // Values the API stores as text, and JSON of other types a direct write could leave: ->> gives their text.
    await db.execute(
      sql`update leads set custom_fields = custom_fields || jsonb_build_object('num', seq % 7, 'flag', seq % 2 = 0, 'nothing', null, 'nested', jsonb_build_object('a', jsonb_build_array(1, 'x,"y"')))
        where workspace_id = ${ws.workspaceId}`,
    );
    const ctx = systemCtx(ws.workspaceId, { db });
    const copied = await bytesOf(await leadsCsv(ctx, {}));
    const written = await db.transaction(async (tx) => bytesOf(await leadsCsv({ ...ctx, db: tx }, {})));
    expect(copied.split("\r\n").length).toBeGreaterThan(awkward.length);
    expect(copied).toBe(written);
    expect(copied).toContain(`"say ""hi"""`);
    expect(copied).toContain(`'=1+1`);
  });

  it("a client that stops reading frees the pooled connection: the rest of the COPY is read and dropped", async () => {
    const ws = await makeWorkspace();
    const db = getDb();
    await db.execute(
      sql`insert into leads (id, workspace_id, email, first_name) select 'lead_cc' || g, ${ws.workspaceId}, 'l' || g || '@cancel.test', repeat('x', 200) from generate_series(1, 20000) g`,
    );
    const ctx = systemCtx(ws.workspaceId, { db });
    // More cancelled downloads than the pool has connections: a leaked connection would stall the last query.
    for (let i = 0; i < 12; i++) {
      const res = await leadsCsv(ctx, {});
      const reader = res.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      expect((await reader.read()).done).toBe(false);
      await reader.cancel();
    }
    const [{ n }] = await db.$client`select count(*)::int as n from leads where workspace_id = ${ws.workspaceId}`;
    expect(n).toBe(20000);
    const whole = await bytesOf(await leadsCsv(ctx, {}));
    expect(whole.trimEnd().split("\r\n")).toHaveLength(20001);
    // Every download's temporary copy of the matching leads was dropped with its COPY.
    const [{ temps }] = await db.$client`select count(*)::int as temps from pg_class where relname = 'leads_csv_rows'`;
    expect(temps).toBe(0);
  }, 60_000);
});
