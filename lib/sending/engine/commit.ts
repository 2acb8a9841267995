import { type SQL, sql } from "drizzle-orm";
import { anyOf, recordset, selectRows } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { campaignLeads, campaigns, emails } from "../../../db/schema";
import { afterSend, type LeadDecision, withinNewLeadCaps } from "./decide";
import { firstEmailsToday } from "./reads";
import { assign, at, name, names, withSteps } from "./sql";
import type { Campaign, Work } from "./types";

/**
 * Claiming the sends: one statement moves every picked lead to its next step — only if it is still
 * ACTIVE, on the same step and on the same mailbox (a reply, pause or reassignment since the read
 * wins) — and writes the emails of exactly those leads as SENDING, together with the other leads'
 * decisions (stopped, finished, moved on, deferred). Once it commits a crash never resends them.
 */

const cl = campaignLeads;
const sameLead = (v: { col(k: "campaignId" | "leadId"): SQL }) =>
  sql`${cl.campaignId} = ${v.col("campaignId")} and ${cl.leadId} = ${v.col("leadId")} and ${cl.status} = 'ACTIVE'`;

/** The decisions that change a lead without sending: stopped or finished, moved past a missing step, deferred. */
function leadSteps(decisions: LeadDecision[]): [string, SQL][] {
  const steps: [string, SQL][] = [];
  const ends = decisions.flatMap((d) =>
    d.kind === "stop" || d.kind === "complete"
      ? [
          {
            campaignId: d.lead.campaignId,
            leadId: d.lead.leadId,
            status: d.kind === "stop" ? ("STOPPED" as const) : ("COMPLETED" as const),
          },
        ]
      : [],
  );
  if (ends.length) {
    const v = recordset("ends", { campaignId: cl.campaignId, leadId: cl.leadId, status: cl.status }, ends);
    steps.push([
      "ended",
      sql`update ${cl} set ${assign([
        [cl.status, v.col("status")],
        [cl.nextSendAt, sql`null`],
      ])} from ${v.from} where ${sameLead(v)}`,
    ]);
  }
  const defers = decisions.flatMap((d) =>
    d.kind === "defer" ? [{ campaignId: d.lead.campaignId, leadId: d.lead.leadId, at: d.until }] : [],
  );
  if (defers.length) {
    const v = recordset("defers", { campaignId: cl.campaignId, leadId: cl.leadId, at: cl.nextSendAt }, defers);
    steps.push(["deferred", sql`update ${cl} set ${assign([[cl.nextSendAt, v.col("at")]])} from ${v.from} where ${sameLead(v)}`]);
  }
  const skips = decisions.flatMap((d) =>
    d.kind === "skip" ? [{ campaignId: d.lead.campaignId, leadId: d.lead.leadId, from: d.lead.nextStepOrder, to: d.toOrder }] : [],
  );
  if (skips.length) {
    const v = recordset("skips", { campaignId: cl.campaignId, leadId: cl.leadId, from: "int", to: "int" }, skips);
    steps.push([
      "skipped",
      sql`update ${cl} set ${assign([[cl.nextStepOrder, v.col("to")]])} from ${v.from}
        where ${sameLead(v)} and ${cl.nextStepOrder} = ${v.col("from")}`,
    ]);
  }
  return steps;
}

/** The recordset's fields that become the email's columns, in the INSERT's order. */
const EMAIL_FIELDS = [
  "id",
  "workspaceId",
  "mailboxId",
  "leadId",
  "leadEmail",
  "campaignId",
  "stepId",
  "expected",
  "variantGroup",
  "messageId",
  "subject",
] as const;

/** Move the picked leads on and insert the emails of exactly the leads that moved; returns their email ids. */
function sendingStatement(work: Work[], now: Date, steps: [string, SQL][]): SQL {
  const rows = work.map((w) => {
    const next = afterSend(w.steps, w.step, now);
    return {
      campaignId: w.campaign.id,
      leadId: w.lead.id,
      mailboxId: w.mailbox.id,
      expected: w.step.stepOrder,
      nextStatus: next.status,
      nextSendAt: next.nextSendAt,
      branchStepId: next.branchStepId,
      id: w.emailId,
      workspaceId: w.mailbox.workspaceId,
      leadEmail: w.lead.email,
      stepId: w.step.id,
      variantGroup: w.step.variantGroup || null,
      messageId: w.messageId,
      subject: w.subject,
    };
  });
  const v = recordset(
    "picked",
    {
      campaignId: cl.campaignId,
      leadId: cl.leadId,
      mailboxId: cl.mailboxId,
      expected: cl.nextStepOrder,
      nextStatus: cl.status,
      nextSendAt: cl.nextSendAt,
      branchStepId: cl.branchStepId,
      id: emails.id,
      workspaceId: emails.workspaceId,
      leadEmail: emails.leadEmail,
      stepId: emails.stepId,
      variantGroup: emails.variantGroup,
      messageId: emails.messageId,
      subject: emails.subject,
    },
    rows,
  );
  const moved = sql`update ${cl} set ${assign([
    [cl.nextStepOrder, sql`${v.col("expected")} + 1`],
    [cl.status, v.col("nextStatus")],
    [cl.nextSendAt, v.col("nextSendAt")],
    [cl.branchStepId, v.col("branchStepId")],
    [cl.firstEmailedAt, sql`coalesce(${cl.firstEmailedAt}, ${at(now)})`],
    [cl.lastEmailedAt, at(now)],
    // Sent again: an out-of-office or wait pause is over.
    [cl.pausedUntil, sql`null`],
    [cl.pauseReason, sql`null`],
  ])}
    from picked
    where ${sameLead(v)} and ${cl.mailboxId} = ${v.col("mailboxId")} and ${cl.nextStepOrder} = ${v.col("expected")}
    returning ${cl.campaignId}, ${cl.leadId}`;
  const e = emails;
  const columns = names(e.id, e.workspaceId, e.mailboxId, e.leadId, e.leadEmail, e.campaignId, e.stepId, e.stepOrder);
  const more = names(e.variantGroup, e.messageId, e.subject, e.status, e.createdAt);
  const insert = sql`insert into ${e} (${columns}, ${more})
    select ${sql.join(
      EMAIL_FIELDS.map((k) => v.col(k)),
      sql`, `,
    )}, 'SENDING', ${at(now)}
    from picked join moved on moved.${name(cl.campaignId)} = ${v.col("campaignId")} and moved.${name(cl.leadId)} = ${v.col("leadId")}
    returning ${e.id}`;
  return withSteps([...steps, ["picked", sql`select * from ${v.from}`], ["moved", moved]], insert);
}

/** Several workers may pick first emails of one campaign at once: under the campaigns' locks, what is left. */
async function newLeadRoom(tx: DbOrTx, capped: Campaign[], now: Date): Promise<Map<string, number>> {
  await tx.execute(
    sql`select ${campaigns.id} from ${campaigns} where ${campaigns.id} = ${anyOf(capped.map((c) => c.id))} order by ${campaigns.id} for update`,
  );
  const sent = await firstEmailsToday(tx, capped, now);
  return new Map(capped.map((c) => [c.id, (c.dailyNewLeadCap ?? 0) - (sent.get(c.id) ?? 0)]));
}

/**
 * Writes a pass's decisions and claims its sends; returns the work that was committed SENDING. One
 * statement, atomic on its own; when first emails of a campaign with a dailyNewLeadCap are among
 * them, a transaction around it holds the campaigns' locks while the cap is counted again.
 */
export async function commitSends(db: DbOrTx, decisions: LeadDecision[], work: Work[], now: Date): Promise<Work[]> {
  const steps = leadSteps(decisions);
  const capped = [...new Set(work.filter((w) => w.step.stepOrder === 0 && w.campaign.dailyNewLeadCap !== null).map((w) => w.campaign))];
  const write = async (tx: DbOrTx, kept: Work[]) => {
    if (kept.length === 0) {
      if (steps.length) await tx.execute(withSteps(steps, sql`select 1`));
      return kept;
    }
    const ids = new Set((await selectRows<{ id: string }>(tx, sendingStatement(kept, now, steps))).map((r) => r.id));
    return kept.filter((w) => ids.has(w.emailId));
  };
  if (capped.length === 0) return write(db, work);
  return db.transaction(async (tx) => write(tx, withinNewLeadCaps(work, await newLeadRoom(tx, capped, now))));
}
