import { sql } from "drizzle-orm";
import { selectRows } from "../db/bulk";
import { getDb } from "../db/client";

/** GET /api/health: `{ ok, db, down, worker: { lastTickAt } }`; `down` names the parts that are unreachable (docs/operations.md). */
export async function health() {
  try {
    const rows = await selectRows<{ at: Date | string | null }>(getDb(), sql`select max(last_finished_at) as at from job_runs`);
    const at = rows[0]?.at;
    return { ok: true, db: true, down: [] as string[], worker: { lastTickAt: at ? new Date(at).toISOString() : null } };
  } catch {
    return { ok: false, db: false, down: ["db"], worker: { lastTickAt: null } };
  }
}
