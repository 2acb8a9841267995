import { asc, eq, like, type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeWorkspace } from "@/test/helpers";
import { anyOf, bulkInsert, bulkUpdate, recordset, selectRows, valuesOf } from "./bulk";
import { getDb } from "./client";
import { jobRuns, tags } from "./schema";

describe("typed bulk statements", () => {
  it("inserts many rows in one statement, skipping conflicts, and returns the asked columns", async () => {
    const { workspaceId } = await makeWorkspace("bulk-insert");
    const at = new Date("2026-11-01T10:00:00Z");
    const rows = [
      { id: "tag_b1", workspaceId, name: "One", color: "#111111", createdAt: at },
      { id: "tag_b2", workspaceId, name: "Two", color: null, createdAt: at },
    ];
    const out = await bulkInsert(getDb(), tags, rows, { returning: ["id", "name"] });
    expect(out).toEqual([
      { id: "tag_b1", name: "One" },
      { id: "tag_b2", name: "Two" },
    ]);
    // Again, with one new row: the existing ones are skipped.
    const again = await bulkInsert(getDb(), tags, [...rows, { id: "tag_b3", workspaceId, name: "Three", color: null, createdAt: at }], {
      onConflictDoNothing: true,
      returning: ["id"],
    });
    expect(again).toEqual([{ id: "tag_b3" }]);
    const stored = await getDb().select().from(tags).where(eq(tags.workspaceId, workspaceId)).orderBy(asc(tags.id));
    expect(stored.map((t) => [t.id, t.name, t.color, t.createdAt.toISOString()])).toEqual([
      ["tag_b1", "One", "#111111", at.toISOString()],
      ["tag_b2", "Two", null, at.toISOString()],
      ["tag_b3", "Three", null, at.toISOString()],
    ]);
  });

  it("updates each row with its own values, keyed by a column, and keeps jsonb values as objects", async () => {
    await bulkInsert(getDb(), jobRuns, [
      { name: "bulk-update-1", lastResult: { n: 1 } },
      { name: "bulk-update-2", lastResult: { n: 2 } },
    ]);
    const when = new Date("2026-11-02T00:00:00Z");
    const n = await bulkUpdate(getDb(), jobRuns, "name", [
      { name: "bulk-update-1", lastFinishedAt: when, lastResult: { n: 10, nested: ["a"] } },
      { name: "bulk-update-2", lastFinishedAt: null, lastResult: { n: 20 } },
    ]);
    expect(n).toBe(2);
    const rows = await getDb().select().from(jobRuns).where(like(jobRuns.name, "bulk-update-%")).orderBy(asc(jobRuns.name));
    expect(rows.map((r) => [r.name, r.lastResult, r.lastFinishedAt?.toISOString() ?? null])).toEqual([
      ["bulk-update-1", { n: 10, nested: ["a"] }, when.toISOString()],
      ["bulk-update-2", { n: 20 }, null],
    ]);
  });

  it("joins a recordset of columns and computed fields, and filters with anyOf and valuesOf", async () => {
    const { workspaceId } = await makeWorkspace("bulk-join");
    await bulkInsert(getDb(), tags, [
      { id: "tag_j1", workspaceId, name: "A" },
      { id: "tag_j2", workspaceId, name: "B" },
      { id: "tag_j3", workspaceId, name: "C" },
    ]);
    const v = recordset("v", { id: tags.id, rank: "int", seen: "timestamptz" }, [
      { id: "tag_j1", rank: 2, seen: new Date("2026-01-01T00:00:00Z") },
      { id: "tag_j3", rank: 1, seen: null },
    ]);
    const joined = await selectRows<{ name: string; rank: number; seen: Date | null }>(
      getDb(),
      sql`select ${tags.name} as name, ${v.col("rank")} as rank, ${v.col("seen")} as seen from ${tags} join ${v.from} on ${tags.id} = ${v.col("id")} order by rank`,
    );
    expect(joined.map((r) => [r.name, r.rank, r.seen ? new Date(r.seen).toISOString() : null])).toEqual([
      ["C", 1, null],
      ["A", 2, "2026-01-01T00:00:00.000Z"],
    ]);
    const any = await getDb()
      .select({ id: tags.id })
      .from(tags)
      .where(sql`${tags.id} = ${anyOf(["tag_j2", "tag_j3", "nope"])}`)
      .orderBy(asc(tags.id));
    expect(any.map((r) => r.id)).toEqual(["tag_j2", "tag_j3"]);
    const values = await selectRows<{ x: string }>(getDb(), sql`select x from ${valuesOf(["p", "q"])} as t(x) order by x`);
    expect(values).toEqual([{ x: "p" }, { x: "q" }]);
  });
  it("finds an UPDATE's rows through the key's index even on statistics from before the table's first ANALYZE", async () => {
    const { workspaceId } = await makeWorkspace("bulk-keyed");
    const many = Array.from({ length: 3000 }, (_, i) => ({ id: `tag_k${i}`, workspaceId, name: `K${i}` }));
    for (let i = 0; i < many.length; i += 1000) await bulkInsert(getDb(), tags, many.slice(i, i + 1000));
    const v = recordset("v", { id: tags.id, name: tags.name }, [
      { id: "tag_k7", name: "seven" },
      { id: "tag_k2999", name: "last" },
    ]);
    const plan = async (where: SQL) =>
      (
        await selectRows<{ "QUERY PLAN": string }>(
          getDb(),
          sql`explain update ${tags} set name = ${v.col("name")} from ${v.from} where ${where}`,
        )
      )
        .map((r) => r["QUERY PLAN"])
        .join("\n");
    // Joined to the JSON rows alone, the planner (expecting 100 of them against a table it has not
    // measured) reads the whole table; keyed with `matches`, it goes through the primary key.
    expect(await plan(sql`${tags.id} = ${v.col("id")}`)).toMatch(/Seq Scan on tags/);
    const keyed = await plan(v.matches(tags.id, "id"));
    expect(keyed).toMatch(/tags_pkey/);
    expect(keyed).not.toMatch(/Seq Scan on tags/);
    expect(await bulkUpdate(getDb(), tags, "id", [{ id: "tag_k7", name: "seven" }])).toBe(1);
    const [row] = await getDb().select().from(tags).where(eq(tags.id, "tag_k7"));
    expect(row.name).toBe("seven");
  });
});
