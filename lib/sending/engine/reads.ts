import { eq, sql } from "drizzle-orm";
import { anyOf, recordset, selectRows } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { campaignSteps, campaigns, emails, files, mailboxes, replies, stepAttachments } from "../../../db/schema";
import { suppressedAmong } from "../../suppressions/check";
import { campaignDay } from "../window";
import { counted } from "./claim";
import type { Campaign, DueLead, Mailbox, Step, StepFile } from "./types";
import type { VariantStats } from "./variants";

/** What the rules and the sender need besides the due rows: one statement per kind, for the whole pass. */

/** Appends to the list kept under `key` (Map.groupBy is Node 21+). */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface PassRows {
  /** The claimed mailboxes, in claim order (one deleted since the claim is left out). */
  mailboxes: Mailbox[];
  campaigns: Map<string, Campaign>;
  steps: Map<string, Step[]>;
  /** `${workspaceId}\0${lower-cased address}` of every suppressed due address. */
  suppressed: Set<string>;
  /** Files of every step a due lead may get. */
  files: Map<string, StepFile[]>;
}

/** The claimed mailboxes' rows, and the campaigns, steps, suppressions and step files of the due rows: read together. */
export async function passRows(db: DbOrTx, mailboxIds: string[], due: DueLead[]): Promise<PassRows> {
  const campaignIds = [...new Set(due.map((d) => d.campaignId))];
  const byWorkspace = new Map<string, string[]>();
  for (const d of due) push(byWorkspace, d.workspaceId, d.email);
  const none = campaignIds.length === 0;
  const [mailboxRows, campaignRows, stepRows, suppressedLists, fileMap] = await Promise.all([
    db
      .select()
      .from(mailboxes)
      .where(sql`${mailboxes.id} = ${anyOf(mailboxIds)}`),
    none
      ? []
      : db
          .select()
          .from(campaigns)
          .where(sql`${campaigns.id} = ${anyOf(campaignIds)}`),
    none
      ? []
      : db
          .select()
          .from(campaignSteps)
          .where(sql`${campaignSteps.campaignId} = ${anyOf(campaignIds)}`),
    Promise.all([...byWorkspace].map(async ([ws, list]) => [...(await suppressedAmong(db, ws, list))].map((e) => `${ws}\u0000${e}`))),
    stepFilesOf(db, due),
  ]);
  const steps = new Map<string, Step[]>();
  for (const s of stepRows) push(steps, s.campaignId, s);
  const mailboxOf = new Map(mailboxRows.map((m) => [m.id, m]));
  return {
    mailboxes: mailboxIds.flatMap((id) => mailboxOf.get(id) ?? []),
    campaigns: new Map(campaignRows.map((c) => [c.id, c])),
    steps,
    suppressed: new Set(suppressedLists.flat()),
    files: fileMap,
  };
}

/** The files (attachments and inline images) of the steps the due leads are at, by step. */
async function stepFilesOf(db: DbOrTx, due: DueLead[]): Promise<Map<string, StepFile[]>> {
  const out = new Map<string, StepFile[]>();
  if (due.length === 0) return out;
  const at = new Map(due.map((d) => [`${d.campaignId}\u0000${d.nextStepOrder}`, { campaignId: d.campaignId, stepOrder: d.nextStepOrder }]));
  const v = recordset("v", { campaignId: campaignSteps.campaignId, stepOrder: campaignSteps.stepOrder }, [...at.values()]);
  const rows = await db
    .select({
      stepId: stepAttachments.stepId,
      filename: stepAttachments.filename,
      contentType: stepAttachments.contentType,
      cid: stepAttachments.cid,
      data: files.data,
    })
    .from(stepAttachments)
    .innerJoin(files, eq(files.id, stepAttachments.fileId))
    .innerJoin(campaignSteps, eq(campaignSteps.id, stepAttachments.stepId))
    .where(
      sql`exists (select 1 from ${v.from} where ${v.col("campaignId")} = ${campaignSteps.campaignId} and ${v.col("stepOrder")} = ${campaignSteps.stepOrder})`,
    );
  for (const r of rows) push(out, r.stepId, r);
  return out;
}

/** First emails of each campaign in its own day: what dailyNewLeadCap limits (follow-ups are not counted). */
export async function firstEmailsToday(db: DbOrTx, list: Campaign[], now: Date): Promise<Map<string, number>> {
  if (list.length === 0) return new Map();
  const days = list.map((c) => {
    const day = campaignDay(c.defaultTimezone, now);
    return { campaignId: c.id, s: day.start, e: day.end };
  });
  const v = recordset("v", { campaignId: campaigns.id, s: "timestamptz", e: "timestamptz" }, days);
  const rows = await selectRows<{ campaignId: string; n: number }>(
    db,
    sql`select ${v.col("campaignId")} as "campaignId", (select count(*) from ${emails}
          where ${emails.campaignId} = ${v.col("campaignId")} and ${emails.stepOrder} = 0 and ${counted}
            and ${emails.createdAt} >= ${v.col("s")} and ${emails.createdAt} < ${v.col("e")})::int as n
        from ${v.from}`,
  );
  return new Map(rows.map((r) => [r.campaignId, r.n]));
}

/** Sends and people's replies per variant (automatic replies are not a result): Thompson sampling's input. */
export async function sendsByVariant(db: DbOrTx, stepIds: string[]): Promise<Map<string, VariantStats>> {
  if (stepIds.length < 2) return new Map();
  // Hand-written: inside a select list Drizzle leaves a single table's columns unqualified, and the
  // subquery's "id" would then be the reply's own.
  const rows = await selectRows<{ stepId: string; sends: number; replies: number }>(
    db,
    sql`select ${emails.stepId} as "stepId", count(*)::int as sends,
          (count(*) filter (where exists (
            select 1 from ${replies} where ${replies.emailId} = ${emails.id} and not ${replies.isAutoReply})))::int as replies
        from ${emails} where ${emails.stepId} = ${anyOf(stepIds)} and ${emails.status} in ('SENT', 'BOUNCED')
        group by ${emails.stepId}`,
  );
  return new Map(rows.map((r) => [r.stepId, { sends: r.sends, replies: r.replies }]));
}

export interface EarlierEmail {
  messageId: string;
  subject: string;
}

/** Threading: the earlier emails of each (campaign, lead), oldest first, keyed `${campaignId}\0${leadId}`. */
export async function earlierEmails(db: DbOrTx, pairs: { campaignId: string; leadId: string }[]): Promise<Map<string, EarlierEmail[]>> {
  const out = new Map<string, EarlierEmail[]>();
  if (pairs.length === 0) return out;
  const v = recordset("v", { campaignId: emails.campaignId, leadId: emails.leadId }, pairs);
  const rows = await selectRows<{ campaignId: string; leadId: string; messageId: string; subject: string }>(
    db,
    sql`select ${emails.campaignId} as "campaignId", ${emails.leadId} as "leadId", ${emails.messageId} as "messageId",
          ${emails.subject} as "subject"
        from ${emails} join ${v.from} on ${emails.leadId} = ${v.col("leadId")} and ${emails.campaignId} = ${v.col("campaignId")}
        where ${counted}
        order by ${emails.createdAt}, ${emails.id}`,
  );
  for (const r of rows) push(out, `${r.campaignId}\u0000${r.leadId}`, { messageId: r.messageId, subject: r.subject });
  return out;
}
