import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { closeDb } from "../db/client";
import { ensureDatabase } from "../db/embedded";

// Each test file gets its own database, cloned from the migrated template.
const name = `t_${randomBytes(6).toString("hex")}`;
const admin = inject("pgAdminUrl");
await ensureDatabase(admin, name, inject("pgTemplate"));
process.env.DATABASE_URL = admin.replace(/\/postgres$/, `/${name}`);

afterAll(async () => {
  await closeDb();
});
