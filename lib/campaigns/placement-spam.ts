import { sql } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";

/**
 * Placement feeds sending: the provider classes at whose seeds a mailbox's latest completed placement
 * test landed mostly in spam (more SPAM than INBOX results among that class's seeds). In PREFER
 * campaigns such a mailbox gets no new leads of those classes, and its unsent ones move to a pool
 * mailbox that lands in their inbox, until a later test of it is clean for the class.
 */
export type SpamClasses = ReadonlyMap<string, ReadonlySet<string>>;

export async function spamClasses(db: DbOrTx, mailboxIds: readonly string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (mailboxIds.length === 0) return out;
  const rows = await selectRows<{ mailboxId: string; provider: string }>(
    db,
    sql`with latest as (
        select distinct on (t.mailbox_id) t.id, t.mailbox_id from placement_tests t
        where t.mailbox_id = ${anyOf([...new Set(mailboxIds)])} and t.status = 'COMPLETED'
        order by t.mailbox_id, t.seq desc)
      select l.mailbox_id as "mailboxId", r.provider
      from latest l join placement_results r on r.test_id = l.id
      group by l.mailbox_id, r.provider
      having count(*) filter (where r.placement = 'SPAM') > count(*) filter (where r.placement = 'INBOX')`,
  );
  for (const r of rows) (out.get(r.mailboxId) ?? out.set(r.mailboxId, new Set()).get(r.mailboxId)!).add(r.provider);
  return out;
}

/** The classes a mailbox lands in spam for, sorted (for views). */
export function spamFor(map: SpamClasses, mailboxId: string): string[] {
  return [...(map.get(mailboxId) ?? [])].sort();
}
