import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { readMigrations } from "../db/migrate";
import { migrationsFolder } from "../db/client";
import { makeWorkspace } from "./helpers";

// The smallest test that needs the suite's database set-up: the first-run tests run it from private
// folders and as an ordinary user (lib/cli/first-run.test.ts).
describe("the test database", () => {
  it("is a clone of the migrated template that this file may write to", async () => {
    const [{ n }] = (await getDb().execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as { n: number }[];
    expect(n).toBe(readMigrations(migrationsFolder()).length);
    const ws = await makeWorkspace("smoke");
    const [{ c }] = (await getDb().execute(sql`select count(*)::int as c from workspaces where id = ${ws.workspaceId}`)) as unknown as {
      c: number;
    }[];
    expect(c).toBe(1);
  });
});
