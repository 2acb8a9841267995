import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { type PgColumn, PgDialect } from "drizzle-orm/pg-core";
import { type RowOf, recordset, type Shape, selectRows } from "../../../db/bulk";
import type { DbOrTx, Tx } from "../../../db/client";
import { isPool, pipelinedTransaction } from "../../../db/pipelined";
import { campaignLeads, campaigns, events, imapState, leadTags, replies, tags, workspaces } from "../../../db/schema";
import type { Clock } from "../../clock";
import { queueAgentAnswers } from "./agent-queue";
import { systemCtx } from "../../ctx";
import { addSuppressions } from "../../suppressions/suppressions";
import { storeReceivedFiles } from "../files";
import type { Mailbox, PreparedReply } from "./intent";
import type { Match } from "./match";
import type { PauseRow } from "./ooo";
import { unique } from "./parse";

const REPLY = {
  id: replies.id,
  workspaceId: replies.workspaceId,
  mailboxId: replies.mailboxId,
  leadId: replies.leadId,
  campaignId: replies.campaignId,
  emailId: replies.emailId,
  messageId: replies.messageId,
  inReplyTo: replies.inReplyTo,
  references: replies.references,
  from: replies.from,
  to: replies.to,
  cc: replies.cc,
  subject: replies.subject,
  textBody: replies.textBody,
  htmlBody: replies.htmlBody,
  receivedAt: replies.receivedAt,
  intent: replies.intent,
  isAutoReply: replies.isAutoReply,
  folder: replies.folder,
  imapUid: replies.imapUid,
  returnDate: replies.returnDate,
  returnDateText: replies.returnDateText,
  referral: replies.referral,
  createdAt: replies.createdAt,
} satisfies Shape;
const EVENT = {
  id: events.id,
  workspaceId: events.workspaceId,
  event: events.event,
  data: events.data,
  createdAt: events.createdAt,
  replyId: "text",
} satisfies Shape;
const STOP = {
  replyId: "text",
  campaignId: campaignLeads.campaignId,
  leadId: campaignLeads.leadId,
  automatic: "boolean",
  /** An OUT_OF_OFFICE reply: it pauses the lead instead where the campaign resumes after out-of-office (ooo.ts). */
  outOfOffice: "boolean",
} satisfies Shape;
const PAUSE = { replyId: "text", campaignId: "text", leadId: "text", until: "timestamptz" } satisfies Shape;
const TAG = { replyId: "text", leadId: leadTags.leadId, name: tags.name, id: tags.id } satisfies Shape;

export type ReplyRow = RowOf<typeof REPLY>;
/** An event of a reply, written only if the reply is. */
export type EventRow = RowOf<typeof EVENT>;
/** A sequence to stop for a reply (when its campaign stops on replies of its kind). */
export type StopRow = RowOf<typeof STOP>;
/** The intent tag of a reply's lead; `id` is used should the tag be new. */
export type TagRow = RowOf<typeof TAG>;

/** What a batch of prepared messages will write: decided by reads only, before any transaction. */
export interface ReplyPlan {
  items: PreparedReply[];
  /** The reply id of each item (only the first of a Message-ID repeated in the batch gets a row). */
  ids: string[];
  who: (Match | undefined)[];
  rows: ReplyRow[];
  events: EventRow[];
  stops: StopRow[];
  /** Sequences paused by out-of-office replies until the lead is back. */
  pauses: PauseRow[];
  /** The intent tag of each matched, classified reply; applied only when the workspace has autoTagOnReply on. */
  tags: TagRow[];
  unsubscribes: Map<string, { leadId: string; email: string }>;
}

/** Where a folder's sync stopped, written together with the replies of a batch. */
export interface FolderState {
  mailboxId: string;
  folder: string;
  uidValidity: string;
  lastUid: number;
}

export interface IngestResult {
  replyId: string;
  leadId: string | null;
  intent: string;
  duplicate: boolean;
}

/** A column's bare name, for an INSERT column list or an UPDATE's SET (where a qualified name is not allowed). */
const name = (c: PgColumn) => sql.identifier(c.name);
const names = (cs: PgColumn[]) => sql.join(cs.map(name), sql`, `);

/**
 * Only rows of a reply this batch inserted: reply ids are new, so a row with the id is one just written.
 * A scalar subquery with LIMIT stays a per-row primary-key lookup (an EXISTS may become a hash join
 * over the whole replies table, the recordset being estimated at 100 rows).
 */
const replyWritten = (replyId: SQL) => sql`coalesce((select true from ${replies} where ${replies.id} = ${replyId} limit 1), false)`;

/**
 * The replies' column list and the recordset's matching select list (db/bulk names its fields),
 * rendered once: every batch writes the same ones, and building them from 42 pieces took a good part
 * of a batch's CPU.
 */
const REPLY_KEYS = Object.keys(REPLY) as (keyof typeof REPLY)[];
const REPLY_COLUMNS = sql.raw(new PgDialect().sqlToQuery(names(REPLY_KEYS.map((k) => REPLY[k]))).sql);
const replyFields = recordset("r", REPLY, []);
const REPLY_PICKS = sql.raw(
  new PgDialect().sqlToQuery(
    sql.join(
      REPLY_KEYS.map((k) => replyFields.col(k)),
      sql`, `,
    ),
  ).sql,
);

/** The replies; a Message-ID the mailbox already has (`replies_mailbox_message_uq`) is skipped. Returns the ids written. */
function insertReplies(rows: ReplyRow[]): SQL {
  const r = recordset("r", REPLY, rows);
  return sql`insert into ${replies} (${REPLY_COLUMNS})
    select ${REPLY_PICKS} from ${r.from}
    on conflict do nothing returning ${replies.id}`;
}

/** The outbox events of the replies written (email.replied, email.positive_reply, lead.unsubscribed). */
function insertEvents(rows: EventRow[]): SQL {
  const e = recordset("e", EVENT, rows);
  return sql`insert into ${events} (${names([events.id, events.workspaceId, events.event, events.data, events.createdAt])})
    select ${e.col("id")}, ${e.col("workspaceId")}, ${e.col("event")}, ${e.col("data")}, ${e.col("createdAt")} from ${e.from}
    where ${replyWritten(e.col("replyId"))}`;
}

/** Stop-on-reply: the campaign's choice; an automatic reply stops the sequence only when stopOnAutoReply. */
function stopSequences(rows: StopRow[]): SQL {
  const s = recordset("s", STOP, rows);
  return sql`update ${campaignLeads} set ${name(campaignLeads.status)} = 'REPLIED', ${name(campaignLeads.nextSendAt)} = null
    from ${s.from} join ${campaigns} on ${campaigns.id} = ${s.col("campaignId")}
    where ${replyWritten(s.col("replyId"))}
      and ${campaignLeads.campaignId} = ${s.col("campaignId")} and ${campaignLeads.leadId} = ${s.col("leadId")}
      and ${campaignLeads.status} = 'ACTIVE' and ${campaignLeads.branchStepId} is null
      and not (${s.col("outOfOffice")} and ${campaigns.oooResume} and not ${campaigns.stopOnAutoReply})
      and (case when ${s.col("automatic")} then ${campaigns.stopOnAutoReply} else ${campaigns.stopOnReply} end)`;
}

/** Out-of-office resume: nothing is sent to the lead before it is back (its next send moves to `until` if earlier). */
function pauseSequences(rows: PauseRow[]): SQL {
  const p = recordset("p", PAUSE, rows);
  return sql`update ${campaignLeads} set ${name(campaignLeads.pausedUntil)} = ${p.col("until")},
      ${name(campaignLeads.pauseReason)} = 'out_of_office',
      ${name(campaignLeads.nextSendAt)} = greatest(coalesce(${campaignLeads.nextSendAt}, ${p.col("until")}), ${p.col("until")})
    from ${p.from}
    where ${replyWritten(p.col("replyId"))}
      and ${campaignLeads.campaignId} = ${p.col("campaignId")} and ${campaignLeads.leadId} = ${p.col("leadId")}
      and ${campaignLeads.status} = 'ACTIVE' and ${campaignLeads.branchStepId} is null`;
}

/**
 * A lead waiting for its step's branch rules is neither stopped nor paused by a reply: the rules read the
 * reply instead, so the lead is due for its decision now (the branch job: lib/sending/branching.ts).
 */
function wakeBranches(rows: StopRow[], now: Date): SQL {
  const s = recordset("s", STOP, rows);
  return sql`update ${campaignLeads} set ${name(campaignLeads.nextSendAt)} = ${now.toISOString()}::timestamptz
    from ${s.from}
    where ${replyWritten(s.col("replyId"))}
      and ${campaignLeads.campaignId} = ${s.col("campaignId")} and ${campaignLeads.leadId} = ${s.col("leadId")}
      and ${campaignLeads.status} = 'ACTIVE' and ${campaignLeads.branchStepId} is not null`;
}

/**
 * autoTagOnReply (AUTO_TAG_NAMES): the leads of the replies written get their intent's tag,
 * a workspace tag of that name in any case, created when missing. Only when the workspace has it on.
 */
function tagLeads(workspaceId: string, rows: TagRow[], now: Date): SQL {
  const t = recordset("t", TAG, rows);
  const at = now.toISOString();
  return sql`
    with auto_tag as (
      select ${t.col("leadId")} as lead_id, ${t.col("name")} as name, ${t.col("id")} as tag_id from ${t.from}
      where ${replyWritten(t.col("replyId"))}
        and (select coalesce((${workspaces.settings}->'ai'->>'autoTagOnReply')::boolean, false) from ${workspaces}
             where ${workspaces.id} = ${workspaceId})
    ),
    tag_names as (select distinct on (lower(name)) lower(name) as key, name, tag_id from auto_tag order by lower(name)),
    tag_known as (
      select ${tags.id} as id, lower(${tags.name}) as key from ${tags}
      where ${tags.workspaceId} = ${workspaceId} and lower(${tags.name}) in (select key from tag_names)
    ),
    tag_new as (
      -- A tag made meanwhile by someone else conflicts: DO UPDATE waits for it and returns its id.
      insert into ${tags} (${names([tags.id, tags.workspaceId, tags.name, tags.createdAt])})
      select n.tag_id, ${workspaceId}::text, n.name, ${at}::timestamptz from tag_names n where n.key not in (select key from tag_known)
      on conflict (${name(tags.workspaceId)}, (lower(${name(tags.name)}))) do update set ${name(tags.name)} = ${tags.name}
      returning ${tags.id} as id, lower(${tags.name}) as key
    )
    insert into ${leadTags} (${names([leadTags.workspaceId, leadTags.leadId, leadTags.tagId, leadTags.createdAt])})
    select distinct ${workspaceId}::text, a.lead_id, k.id, ${at}::timestamptz
    from auto_tag a join (select * from tag_known union all select * from tag_new) k on k.key = lower(a.name)
    on conflict do nothing`;
}

/** Where the folder's sync stopped, with the batch that took it there. */
export function saveFolderState(db: DbOrTx, s: FolderState, now: Date) {
  const set = { uidValidity: s.uidValidity, lastUid: s.lastUid, lastSyncAt: now };
  return db
    .insert(imapState)
    .values({ mailboxId: s.mailboxId, folder: s.folder, ...set })
    .onConflictDoUpdate({ target: [imapState.mailboxId, imapState.folder], set })
    .prepare("inbox_save_state") // run every cycle: one round trip once the connection knows it (db/prepared.ts)
    .execute();
}

/**
 * An unsubscribe request: the address suppressed (reason unsubscribe_reply) and every
 * ACTIVE sequence of the lead stopped as UNSUBSCRIBED.
 */
async function unsubscribe(tx: Tx, clock: Clock, workspaceId: string, us: { leadId: string; email: string }[]): Promise<void> {
  await addSuppressions(systemCtx(workspaceId, { db: tx, clock }), { emails: unique(us.map((u) => u.email)) }, "unsubscribe_reply");
  await tx
    .update(campaignLeads)
    .set({ status: "UNSUBSCRIBED", nextSendAt: null })
    .where(and(inArray(campaignLeads.leadId, unique(us.map((u) => u.leadId))), eq(campaignLeads.status, "ACTIVE")));
}

/**
 * The result of pipelined statements, or the error of the first that failed in the order they were
 * sent: after it the transaction is aborted, and the later ones only say so (25P02).
 */
async function firstFailure<T>(first: Promise<T>, rest: Promise<unknown>[]): Promise<T> {
  const settled = await Promise.allSettled([first, ...rest]);
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return (settled[0] as PromiseFulfilledResult<T>).value;
}

/** Where the folder's sync stopped, as a statement of the batch's transaction. */
function folderState(s: FolderState, now: Date): SQL {
  const set = [imapState.uidValidity, imapState.lastUid, imapState.lastSyncAt].map((c) => sql`${name(c)} = excluded.${name(c)}`);
  return sql`insert into ${imapState} (${names([imapState.mailboxId, imapState.folder, imapState.uidValidity, imapState.lastUid, imapState.lastSyncAt])})
    values (${s.mailboxId}, ${s.folder}, ${s.uidValidity}, ${s.lastUid}, ${now.toISOString()}::timestamptz)
    on conflict (${name(imapState.mailboxId)}, ${name(imapState.folder)}) do update set ${sql.join(set, sql`, `)}`;
}

/**
 * The statements of a planned batch, one per concern, in the order they run: the replies (a Message-ID
 * already stored for the mailbox, or twice in the batch, is a duplicate and changes nothing); then,
 * only for the replies actually written (each statement finds them by their new ids), their events into
 * the outbox, their sequences' stops, their leads' intent tags, their reply agents' answers to make; with `state`, where the folder's sync
 * stopped. None waits for another's answer, so they are sent together (pipelined). Their texts never
 * change (rows travel as one JSON parameter each), so they stay prepared.
 */
function statements(mb: Mailbox, plan: ReplyPlan, state: FolderState | undefined, now: Date): { replies: SQL; effects: SQL[] } {
  const effects: SQL[] = [];
  if (plan.events.length) effects.push(insertEvents(plan.events));
  if (plan.stops.length) effects.push(stopSequences(plan.stops), wakeBranches(plan.stops, now));
  if (plan.pauses.length) effects.push(pauseSequences(plan.pauses));
  if (plan.tags.length) effects.push(tagLeads(mb.workspaceId, plan.tags, now));
  const answers = queueAgentAnswers(plan.rows, now); // the reply agents' work (queued here, done by their job in lib/agent-replies)
  if (answers) effects.push(answers);
  if (state) effects.push(folderState(state, now));
  return { replies: insertReplies(plan.rows), effects };
}

/** Received files and unsubscribe requests take more statements, after the replies are written. */
const needsMore = (plan: ReplyPlan) => plan.unsubscribes.size > 0 || plan.items.some((p) => p.parsed.attachments?.length);

function resultsOf(plan: ReplyPlan, inserted: Set<string>): IngestResult[] {
  return plan.items.map((p, i) => ({
    replyId: plan.ids[i],
    leadId: plan.who[i]?.leadId ?? null,
    intent: p.intent,
    duplicate: !inserted.has(plan.ids[i]),
  }));
}

/**
 * Writes a planned batch in the caller's transaction (see statements), then, for the replies written,
 * their received files and unsubscribe requests. Results are in the order of `plan.items`.
 */
export async function writeReplies(tx: Tx, clock: Clock, mb: Mailbox, plan: ReplyPlan, state?: FolderState): Promise<IngestResult[]> {
  const q = statements(mb, plan, state, clock.now());
  const rows = await firstFailure(
    selectRows<{ id: string }>(tx, q.replies),
    q.effects.map((e) => selectRows(tx, e)),
  );
  const inserted = new Set(rows.map((r) => r.id));
  const { items, ids } = plan;
  for (let i = 0; i < items.length; i++)
    if (inserted.has(ids[i]) && items[i].parsed.attachments?.length)
      await storeReceivedFiles(tx, mb.workspaceId, ids[i], items[i].parsed.attachments);
  const unsubscribed = [...plan.unsubscribes.entries()].filter(([id]) => inserted.has(id)).map(([, u]) => u);
  if (unsubscribed.length) await unsubscribe(tx, clock, mb.workspaceId, unsubscribed);
  return resultsOf(plan, inserted);
}

/**
 * Stores a planned batch atomically: in one round trip (pipelinedTransaction) when its statements are
 * all it takes and `db` can reserve a connection, else in a transaction (writeReplies).
 */
export async function storeReplies(db: DbOrTx, clock: Clock, mb: Mailbox, plan: ReplyPlan, state?: FolderState): Promise<IngestResult[]> {
  if (!isPool(db) || needsMore(plan)) return db.transaction((tx) => writeReplies(tx, clock, mb, plan, state));
  const q = statements(mb, plan, state, clock.now());
  const rows = await pipelinedTransaction<{ id: string }>(db, q.replies, q.effects);
  return resultsOf(plan, new Set(rows.map((r) => r.id)));
}
