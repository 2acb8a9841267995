import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { sql } from "drizzle-orm";

describe("database", () => {
  it("has the migrated tables", async () => {
    const rows = await getDb().execute(sql`select count(*)::int as n from leads`);
    expect(rows[0].n).toBe(0);
  });
});
