import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { tags } from "@/db/schema";
import { makeWorkspace } from "@/test/helpers";
import { twoStepTransaction } from "./pipelined";

const insertTag = (id: string, workspaceId: string, name: string) =>
  sql`insert into ${tags} (id, workspace_id, name) values (${id}, ${workspaceId}, ${name})`;

describe("twoStepTransaction", () => {
  it("writes what follows from the read's rows, and returns the writer's result", async () => {
    const { workspaceId } = await makeWorkspace("two-step-ok");
    const got = await twoStepTransaction<{ n: number }, string>(getDb(), sql`select 2::int as n`, (rows) => ({
      statements: rows.map((r) => insertTag(`tag_ts${r.n}`, workspaceId, `Two ${r.n}`)),
      result: `made ${rows.length}`,
    }));
    expect(got).toBe("made 1");
    const stored = await getDb().select().from(tags).where(eq(tags.workspaceId, workspaceId)).orderBy(asc(tags.id));
    expect(stored.map((t) => [t.id, t.name])).toEqual([["tag_ts2", "Two 2"]]);
  });

  it("rolls everything back when a write fails or the writer throws, and the connection stays usable", async () => {
    const db = getDb();
    const { workspaceId } = await makeWorkspace("two-step-fail");
    const failing = twoStepTransaction(db, sql`select 1::int as n`, () => ({
      statements: [insertTag("tag_ts3", workspaceId, "Three"), insertTag("tag_ts3", workspaceId, "Again")],
      result: null,
    }));
    await expect(failing).rejects.toMatchObject({ code: "23505" });
    const throwing = twoStepTransaction(db, sql`select 1::int as n`, () => {
      throw new Error("writer failed");
    });
    await expect(throwing).rejects.toThrow("writer failed");
    expect(await db.select().from(tags).where(eq(tags.workspaceId, workspaceId))).toEqual([]);
    // Inside an open transaction the same statements run in a savepoint.
    const inTx = await db.transaction((tx) =>
      twoStepTransaction<{ n: number }, number>(tx, sql`select 4::int as n`, (rows) => ({
        statements: [insertTag("tag_ts4", workspaceId, "Four")],
        result: rows[0].n,
      })),
    );
    expect(inTx).toBe(4);
    expect((await db.select().from(tags).where(eq(tags.workspaceId, workspaceId))).map((t) => t.id)).toEqual(["tag_ts4"]);
  });
});
