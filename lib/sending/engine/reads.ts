import { eq, sql } from "drizzle-orm";
import { anyOf, columnsOf, recordset, selectRows } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { campaignSteps, campaigns, emails, files, mailboxes, replies, stepAttachments } from "../../../db/schema";
import { suppressedAmong } from "../../suppressions/check";
import { campaignDay } from "../window";
import { counted } from "./claim";
import { type Campaign, type DueLead, MAILBOX_COLUMNS, type Mailbox, type Step, type StepFile } from "./types";
import type { VariantStats } from "./variants";

/** What the rules and the sender need besides the due rows: one statement per kind, for the whole pass. */

/** Appends to the list kept under `key` (Map.groupBy is Node 21+). */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The engine's columns of a mailbox (types.ts MAILBOX_COLUMNS), as a selection. */
const MAILBOX_SELECTION = columnsOf(mailboxes, MAILBOX_COLUMNS);

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

/**
 * A pass's campaign-wide reads, shared by its rounds: the campaigns, their steps and the steps' files
 * are read once per pass for the campaigns its rounds meet, not once per round (5,000 mailboxes in 6
 * rounds of 834 read the same campaigns six times). A pass lasts about a second and reads them at one
 * moment, as a single round did; the due rows, mailboxes and suppressions stay per round.
 */
export class CampaignReads {
  private readonly campaigns = new Map<string, Promise<{ campaign: Campaign | undefined; steps: Step[] }>>();
  private readonly files = new Map<string, Promise<StepFile[]>>();

  constructor(private readonly db: DbOrTx) {}

  /** Each campaign (undefined when deleted) with its steps; those not read yet in this pass, in one go. */
  campaignsOf(ids: string[]): Promise<{ campaign: Campaign | undefined; steps: Step[] }[]> {
    const missing = ids.filter((id) => !this.campaigns.has(id));
    if (missing.length > 0) {
      const read = Promise.all([
        this.db
          .select()
          .from(campaigns)
          .where(sql`${campaigns.id} = ${anyOf(missing)}`),
        this.db
          .select()
          .from(campaignSteps)
          .where(sql`${campaignSteps.campaignId} = ${anyOf(missing)}`),
      ]);
      for (const id of missing) {
        this.campaigns.set(
          id,
          read.then(([cs, ss]) => ({ campaign: cs.find((c) => c.id === id), steps: ss.filter((st) => st.campaignId === id) })),
        );
      }
    }
    return Promise.all(ids.map((id) => this.campaigns.get(id) as Promise<{ campaign: Campaign | undefined; steps: Step[] }>));
  }

  /** The files of the steps the due leads are at, by step id; steps not read yet in this pass, in one go. */
  async filesOf(due: DueLead[]): Promise<Map<string, StepFile[]>> {
    const at = new Map(
      due.map((d) => [`${d.campaignId}\u0000${d.nextStepOrder}`, { campaignId: d.campaignId, stepOrder: d.nextStepOrder }]),
    );
    const missing = [...at].filter(([key]) => !this.files.has(key));
    if (missing.length > 0) {
      const read = stepFilesAt(
        this.db,
        missing.map(([, v]) => v),
      );
      for (const [key] of missing)
        this.files.set(
          key,
          read.then((byPlace) => byPlace.get(key) ?? []),
        );
    }
    const out = new Map<string, StepFile[]>();
    for (const list of await Promise.all([...at.keys()].map((key) => this.files.get(key) as Promise<StepFile[]>))) {
      for (const f of list) push(out, f.stepId, f);
    }
    return out;
  }
}

/**
 * The claimed mailboxes' rows, the suppressions among the due addresses (per round), and the
 * campaigns, steps and step files of the due rows (per pass, `shared`): read together.
 */
export async function passRows(db: DbOrTx, mailboxIds: string[], due: DueLead[], shared = new CampaignReads(db)): Promise<PassRows> {
  const [mailboxRows, rows] = await Promise.all([
    db
      .select(MAILBOX_SELECTION)
      .from(mailboxes)
      .where(sql`${mailboxes.id} = ${anyOf(mailboxIds)}`),
    dueRows(db, due, shared),
  ]);
  const mailboxOf = new Map(mailboxRows.map((m) => [m.id, m]));
  return { mailboxes: mailboxIds.flatMap((id) => mailboxOf.get(id) ?? []), ...rows };
}

/**
 * A second look's due leads (claim.ts nextDueLeads) added to a round's rows: their campaigns, steps,
 * files and suppressions, read as the first ones were.
 */
export async function addDueRows(db: DbOrTx, rows: PassRows, due: DueLead[], shared: CampaignReads): Promise<void> {
  const more = await dueRows(db, due, shared);
  for (const [id, c] of more.campaigns) rows.campaigns.set(id, c);
  for (const [id, s] of more.steps) rows.steps.set(id, s);
  for (const [id, f] of more.files) rows.files.set(id, f);
  for (const key of more.suppressed) rows.suppressed.add(key);
}

/** What the rules and the sender need of some due leads besides the mailboxes. */
async function dueRows(db: DbOrTx, due: DueLead[], shared: CampaignReads): Promise<Omit<PassRows, "mailboxes">> {
  const campaignIds = [...new Set(due.map((d) => d.campaignId))];
  const byWorkspace = new Map<string, string[]>();
  for (const d of due) push(byWorkspace, d.workspaceId, d.email);
  const none = campaignIds.length === 0;
  const [campaignRows, suppressedLists, files] = await Promise.all([
    none ? [] : shared.campaignsOf(campaignIds),
    Promise.all([...byWorkspace].map(async ([ws, list]) => [...(await suppressedAmong(db, ws, list))].map((e) => `${ws}\u0000${e}`))),
    none ? new Map<string, StepFile[]>() : shared.filesOf(due),
  ]);
  const found = campaignRows.flatMap(({ campaign, steps }) => (campaign ? [{ campaign, steps }] : []));
  return {
    campaigns: new Map(found.map((r) => [r.campaign.id, r.campaign])),
    steps: new Map(found.filter((r) => r.steps.length > 0).map((r) => [r.campaign.id, r.steps])),
    suppressed: new Set(suppressedLists.flat()),
    files,
  };
}

/** The files (attachments and inline images) of steps at some (campaign, step order) places, by place. */
async function stepFilesAt(db: DbOrTx, places: { campaignId: string; stepOrder: number }[]): Promise<Map<string, StepFile[]>> {
  const out = new Map<string, StepFile[]>();
  const v = recordset("v", { campaignId: campaignSteps.campaignId, stepOrder: campaignSteps.stepOrder }, places);
  const rows = await db
    .select({
      stepId: stepAttachments.stepId,
      filename: stepAttachments.filename,
      contentType: stepAttachments.contentType,
      cid: stepAttachments.cid,
      data: files.data,
      campaignId: campaignSteps.campaignId,
      stepOrder: campaignSteps.stepOrder,
    })
    .from(stepAttachments)
    .innerJoin(files, eq(files.id, stepAttachments.fileId))
    .innerJoin(campaignSteps, eq(campaignSteps.id, stepAttachments.stepId))
    .where(
      sql`exists (select 1 from ${v.from} where ${v.col("campaignId")} = ${campaignSteps.campaignId} and ${v.col("stepOrder")} = ${campaignSteps.stepOrder})`,
    );
  for (const { campaignId, stepOrder, ...f } of rows) push(out, `${campaignId}\u0000${stepOrder}`, f);
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
  stepId: string | null;
}

/** How each subsequence threads: `same` (on in the lead's thread) or `new` (a thread of its own). */
export async function subsequenceThreading(db: DbOrTx, ids: string[]): Promise<Map<string, "same" | "new">> {
  if (ids.length === 0) return new Map();
  const rows = await selectRows<{ id: string; threading: "same" | "new" }>(
    db,
    sql`select id, threading from campaign_subsequences where id = ${anyOf(ids)}`,
  );
  return new Map(rows.map((r) => [r.id, r.threading]));
}

/** Threading: the earlier emails of each (campaign, lead), oldest first, keyed `${campaignId}\0${leadId}`. */
export async function earlierEmails(db: DbOrTx, pairs: { campaignId: string; leadId: string }[]): Promise<Map<string, EarlierEmail[]>> {
  const out = new Map<string, EarlierEmail[]>();
  if (pairs.length === 0) return out;
  const v = recordset("v", { campaignId: emails.campaignId, leadId: emails.leadId }, pairs);
  const rows = await selectRows<{ campaignId: string; leadId: string; messageId: string; subject: string; stepId: string | null }>(
    db,
    sql`select ${emails.campaignId} as "campaignId", ${emails.leadId} as "leadId", ${emails.messageId} as "messageId",
          ${emails.subject} as "subject", ${emails.stepId} as "stepId"
        from ${emails} join ${v.from} on ${emails.leadId} = ${v.col("leadId")} and ${emails.campaignId} = ${v.col("campaignId")}
        where ${counted}
        order by ${emails.createdAt}, ${emails.id}`,
  );
  for (const r of rows) push(out, `${r.campaignId}\u0000${r.leadId}`, { messageId: r.messageId, subject: r.subject, stepId: r.stepId });
  return out;
}
