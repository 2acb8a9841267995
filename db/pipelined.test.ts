import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeWorkspace } from "@/test/helpers";
import { getDb } from "./client";
import { isPool, pipelinedTransaction } from "./pipelined";
import { tags } from "./schema";

const insertTag = (id: string, workspaceId: string, name: string) =>
  sql`insert into ${tags} (id, workspace_id, name) values (${id}, ${workspaceId}, ${name})`;

describe("pipelinedTransaction", () => {
  it("applies the statements together and returns the first one's rows", async () => {
    const db = getDb();
    expect(isPool(db)).toBe(true);
    const { workspaceId } = await makeWorkspace("pipelined-ok");
    const rows = await pipelinedTransaction<{ id: string }>(
      db,
      sql`insert into ${tags} (id, workspace_id, name) values ('tag_p1', ${workspaceId}, 'One') returning id`,
      [insertTag("tag_p2", workspaceId, "Two"), sql`update ${tags} set color = '#222222' where id = 'tag_p2'`],
    );
    expect(rows).toEqual([{ id: "tag_p1" }]);
    const stored = await db.select().from(tags).where(eq(tags.workspaceId, workspaceId)).orderBy(asc(tags.id));
    expect(stored.map((t) => [t.id, t.name, t.color])).toEqual([
      ["tag_p1", "One", null],
      ["tag_p2", "Two", "#222222"],
    ]);
  });

  it("rolls every statement back when one fails, and throws the first failure", async () => {
    const db = getDb();
    const { workspaceId } = await makeWorkspace("pipelined-fail");
    const failing = pipelinedTransaction(db, insertTag("tag_p3", workspaceId, "Three"), [
      insertTag("tag_p4", workspaceId, "Four"),
      insertTag("tag_p3", workspaceId, "Again"), // the same primary key: unique violation
      insertTag("tag_p5", workspaceId, "Five"),
    ]);
    await expect(failing).rejects.toMatchObject({ code: "23505" });
    expect(await db.select().from(tags).where(eq(tags.workspaceId, workspaceId))).toEqual([]);
    // The reserved connection went back to the pool usable (not left in an aborted transaction).
    const ok = await pipelinedTransaction<{ n: number }>(db, sql`select 1::int as n`, []);
    expect(ok).toEqual([{ n: 1 }]);
  });
});
