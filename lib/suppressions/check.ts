import { sql } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";

/** Which of these (normalised) addresses are suppressed, by address or by domain. Lower-cased. */
export async function suppressedAmong(db: DbOrTx, workspaceId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  const domains = [...new Set(lowered.map((e) => e.slice(e.lastIndexOf("@") + 1)))];
  const rows = await selectRows<{ kind: string; value: string }>(
    db,
    sql`
      select kind, value from suppressions
      where workspace_id = ${workspaceId}
        and ((kind = 'email' and value = ${anyOf(lowered)}) or (kind = 'domain' and value = ${anyOf(domains)}))`,
  );
  const byEmail = new Set(rows.filter((r) => r.kind === "email").map((r) => r.value));
  const byDomain = new Set(rows.filter((r) => r.kind === "domain").map((r) => r.value));
  return new Set(lowered.filter((e) => byEmail.has(e) || byDomain.has(e.slice(e.lastIndexOf("@") + 1))));
}
