import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import type { Clock } from "../clock";
import { systemCtx } from "../ctx";
import { addReferralLead } from "../inbox/referral-add";
import type { Logger } from "../log";

/** How far back an unhandled referral is still taken up (older ones stay for a person to add). */
const WINDOW_DAYS = 7;

/**
 * Autonomous handling of referrals: a wrong-person reply that names an address, in a campaign whose reply
 * agent answers on its own (autonomousReplies), gets the named person added as a lead of that campaign
 * without a click — the same call as "Add as a lead" (POST /replies/<id>/referral/add), so suppression and
 * merge rules are the same and the new lead carries referrerName and referrerEmail for its first email.
 * Each reply is taken up once: the call marks the referral with the lead it made (or `handled` when the
 * address is suppressed or malformed).
 */
export async function addReferralsAutonomously(db: DbOrTx, clock: Clock, log: Logger, limit = 50): Promise<number> {
  const since = new Date(clock.now().getTime() - WINDOW_DAYS * 86_400_000).toISOString();
  const due = await selectRows<{ id: string; workspace_id: string }>(
    db,
    sql`select r.id, r.workspace_id from replies r
        join reply_agent_campaigns rac on rac.campaign_id = r.campaign_id
        join reply_agents a on a.id = rac.agent_id and a.autonomous_replies
        where r.intent = 'WRONG_PERSON' and r.referral->>'email' is not null
          and r.referral->>'leadId' is null and not coalesce((r.referral->>'handled')::boolean, false)
          and r.received_at >= ${since}::timestamptz
        order by r.received_at
        limit ${limit}`,
  );
  let added = 0;
  for (const r of due) {
    try {
      const result = await addReferralLead(systemCtx(r.workspace_id, { db, clock }), r.id, {});
      if (result.id) added++;
    } catch (e) {
      log.error("adding a referral failed", { replyId: r.id, error: String(e) });
      await db.execute(sql`update replies set referral = referral || '{"handled": true}'::jsonb where id = ${r.id}`);
    }
  }
  return added;
}
