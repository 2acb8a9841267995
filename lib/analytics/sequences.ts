import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { PERSON_REPLY } from "./counts";

/**
 * Subsequences and branches in a campaign's stats, counted as everywhere else: sends are SENT or BOUNCED
 * emails, replies are leads who answered one of the emails with a person's reply, positive ones those
 * whose reply was INTERESTED; `entered` counts the leads a branch moved into the subsequence.
 */
export async function subsequenceStats(db: DbOrTx, campaignId: string) {
  return selectRows<{ id: string; name: string; entered: number; sent: number; replied: number; positive: number }>(
    db,
    sql`select sub.id, sub.name,
          (select count(distinct lb.lead_id) from lead_branches lb
            where lb.campaign_id = sub.campaign_id and lb.action->>'type' = 'subsequence' and lb.action->>'subsequenceId' = sub.id)::int as entered,
          count(e.id) filter (where e.status in ('SENT', 'BOUNCED'))::int as sent,
          count(distinct e.lead_email)
            filter (where exists (select 1 from replies r where r.email_id = e.id and r.lead_id is not null and ${PERSON_REPLY}))::int as replied,
          count(distinct e.lead_email)
            filter (where exists (select 1 from replies r where r.email_id = e.id and r.lead_id is not null and r.intent = 'INTERESTED'))::int
            as positive
        from campaign_subsequences sub
        left join campaign_steps s on s.subsequence_id = sub.id
        left join emails e on e.step_id = s.id
        where sub.campaign_id = ${campaignId}
        group by sub.id, sub.name, sub.campaign_id, sub.created_at
        order by sub.created_at, sub.id`,
  );
}

/** How many leads took each branch of each step: by rule (its place in the step's list; null = no rule matched). */
export async function branchStats(db: DbOrTx, campaignId: string) {
  const rows = await selectRows<{ step_id: string; rule_index: number | null; rule: string; action: string; taken: number }>(
    db,
    sql`select step_id, rule_index, min(rule) as rule, min(action->>'type') as action, count(*)::int as taken
        from lead_branches where campaign_id = ${campaignId}
        group by step_id, rule_index
        order by step_id, rule_index nulls last`,
  );
  return rows.map((r) => ({ stepId: r.step_id, ruleIndex: r.rule_index, rule: r.rule, action: r.action, taken: r.taken }));
}
