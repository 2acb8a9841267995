import { systemCtx } from "../ctx";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { ParsedMail, AddressObject } from "mailparser";
import type { DbOrTx } from "../../db/client";
import { runPrepared } from "../../db/prepared";
import { isFreeMailDomain } from "../mail/free-mail";
import { campaignLeads, emails, leads, replies, sentReplies, type Address } from "../../db/schema";
import type { Clock } from "../clock";
import type { EventName } from "../events/emit";
import { newEventId, newId } from "../ids";
import { hasWarmupHeader } from "../mail/warmup";
import { addSuppressions } from "../suppressions/suppressions";
import { aiProvider, builtInProvider, classifyWithFallback } from "../ai/provider";
import { AUTO_TAG_NAMES, loadAiSettings } from "../ai/settings";
import { classify, isAutomatic, type Intent } from "./classify";
import { storeMessageFiles, storeReceivedFiles } from "./files";

type Mailbox = { id: string; workspaceId: string; email: string };

/**
 * Postgres text and jsonb refuse NUL characters, and jsonb a lone UTF-16 surrogate (which a broken
 * encoding can leave in decoded text): a message that carries one is stored without them.
 */
function clean(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what Postgres text cannot store
  return /[\u0000\uD800-\uDFFF]/.test(s)
    ? // biome-ignore lint/suspicious/noControlCharactersInRegex: as above
      s.replace(/\u0000/g, "").replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    : s;
}

function addresses(a: AddressObject | AddressObject[] | undefined): Address[] {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  return list
    .flatMap((x) => x.value)
    .filter((v) => v.address)
    .map((v) => ({ name: v.name ? clean(v.name) : null, address: clean(v.address!.toLowerCase()) }));
}

function refsOf(m: ParsedMail): string[] {
  const r = m.references ? (Array.isArray(m.references) ? m.references : [m.references]) : [];
  return [...new Set([...(m.inReplyTo ? [m.inReplyTo] : []), ...r].flatMap((x) => clean(x).split(/\s+/)).filter(Boolean))];
}

const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

/** A list as one JSON parameter (`= any(…)`), however long — the bulk idiom of docs/architecture.md. */
function anyOf(values: string[]): SQL {
  return sql`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;
}

/** Warmup traffic (issue 6) never appears in the inbox: such a message is not stored, counted or kept unmatched. */
export function isWarmup(m: ParsedMail): boolean {
  return hasWarmupHeader(m.headers as Map<string, unknown>);
}

type Match = { leadId: string; leadEmail: string; campaignId: string | null; emailId: string | null };

/**
 * Finds who each received message is from (spec 2.9 / issue 6 rule 1), in this order: our Message-IDs
 * in In-Reply-To/References, then the sender's address among the workspace's leads, then a colleague at
 * the domain of a lead this mailbox emailed. Nothing found: the message is kept unmatched.
 *
 * One statement for the whole batch, with a part per rule: our emails named by the thread headers; the
 * leads with the senders' addresses (each with the latest email sent to it); and, for senders who are
 * not leads, the latest email this mailbox sent to a lead at their domain. The order is applied here.
 */
async function matchAll(db: DbOrTx, mb: Mailbox, items: { refs: string[]; from: Address | null }[]): Promise<(Match | undefined)[]> {
  // A colleague is someone at the lead's company domain: never at a free mail service's.
  const domainOf = (a: Address) => {
    const d = a.address.slice(a.address.lastIndexOf("@") + 1);
    return isFreeMailDomain(d) ? null : d;
  };
  const input = items.map((it) => ({ refs: it.refs, address: it.from?.address ?? null, domain: it.from ? domainOf(it.from) : null }));
  if (!input.some((i) => i.refs.length || i.address)) return items.map(() => undefined);
  type Row = {
    via: "thread" | "address" | "colleague";
    key: string;
    lead_id: string | null;
    lead_email: string | null;
    campaign_id: string | null;
    email_id: string | null;
    at: number | string | null;
  };
  const rows = await runPrepared<Row>(
    db,
    sql`
    with items as (
      select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as i(refs jsonb, address text, domain text)
    ),
    thread as (
      select e.message_id, e.lead_id, e.campaign_id, e.id, e.created_at from emails e
      where e.workspace_id = ${mb.workspaceId} and e.message_id = any(array(select jsonb_array_elements_text(i.refs) from items i))
    ),
    address as (
      select lower(l.email) as address, l.id as lead_id, l.email as lead_email, x.campaign_id, x.id as email_id from leads l
      left join lateral (select id, campaign_id from emails where lead_id = l.id order by created_at desc limit 1) x on true
      where l.workspace_id = ${mb.workspaceId} and lower(l.email) = any(array(select address from items where address is not null))
    ),
    colleague as (
      select d.domain, x.lead_id, x.campaign_id, x.id as email_id
      from (select distinct i.domain from items i where i.domain is not null and not exists (select 1 from address a where a.address = i.address)) d
      cross join lateral (
        select e.lead_id, e.campaign_id, e.id from emails e
        where e.workspace_id = ${mb.workspaceId} and e.mailbox_id = ${mb.id} and e.lead_id is not null
          and lower(split_part(e.lead_email, '@', 2)) = d.domain
        order by e.created_at desc limit 1
      ) x
    )
    select 'thread' as via, t.message_id as key, t.lead_id, l.email as lead_email, t.campaign_id, t.id as email_id, extract(epoch from t.created_at)::float8 as at
      from thread t left join leads l on l.id = t.lead_id
    union all select 'address', address, lead_id, lead_email, campaign_id, email_id, null from address
    union all select 'colleague', c.domain, c.lead_id, l.email, c.campaign_id, c.email_id, null from colleague c join leads l on l.id = c.lead_id`,
  );
  const thread = rows.filter((r) => r.via === "thread");
  const byAddress = new Map(rows.filter((r) => r.via === "address").map((r) => [r.key, r]));
  const byDomain = new Map(rows.filter((r) => r.via === "colleague").map((r) => [r.key, r]));
  // A lead deleted meanwhile (emails keep lead_id only while the lead exists) matches nothing.
  const match = (r: Row | undefined): Match | undefined =>
    r?.lead_id && r.lead_email !== null
      ? { leadId: r.lead_id, leadEmail: r.lead_email, campaignId: r.campaign_id, emailId: r.email_id }
      : undefined;
  return items.map((it, i) => {
    if (it.refs.length) {
      const refs = new Set(it.refs);
      // The newest of our emails the headers name decides (as `order by created_at desc limit 1` did).
      const newest = thread
        .filter((r) => refs.has(r.key))
        .sort((a, b) => Number(b.at) - Number(a.at) || Number(!!b.lead_id) - Number(!!a.lead_id))[0];
      if (newest?.lead_id) return match(newest);
    }
    if (!it.from) return undefined;
    return match(byAddress.get(it.from.address)) ?? match(byDomain.get(input[i].domain!));
  });
}

export interface IngestResult {
  replyId: string;
  leadId: string | null;
  intent: string;
  duplicate: boolean;
}

/** A received message as read from a folder. */
export interface Received {
  parsed: ParsedMail;
  folder: string;
  uid?: number;
  uidValidity?: string;
}

/** A received message ready to store: its fields cleaned and its intent decided (outside any transaction). */
export interface PreparedReply {
  parsed: ParsedMail;
  folder: string;
  uid: number | null;
  messageId: string;
  from: Address | null;
  refs: string[];
  text: string;
  automatic: boolean;
  intent: Intent;
}

/** Whether AI classification is on: a value, or read once on first need (most batches never need it). */
export type AiSwitch = boolean | (() => Promise<boolean>);

async function eachLimited<T>(items: T[], width: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/**
 * Decides what each received message is before anything is stored: warmup traffic and our own
 * messages are dropped; automatic replies are decided by the rules, an unsubscribe request always by
 * the rules, a person's other reply by the AI provider when configured and enabled (a failing provider
 * falls back to the rules, so classification never blocks ingestion).
 */
export async function prepareReplies(db: DbOrTx, mb: Mailbox, items: Received[], ai?: AiSwitch): Promise<PreparedReply[]> {
  const out: PreparedReply[] = [];
  const forAi: PreparedReply[] = [];
  for (const it of items) {
    const m = it.parsed;
    if (isWarmup(m)) continue;
    const from = addresses(m.from)[0] ?? null;
    if (from && from.address === mb.email.toLowerCase()) continue; // our own message
    const messageId = clean(m.messageId ?? `<uid-${it.uidValidity ?? "0"}-${it.uid ?? Date.now()}@${mb.email.split("@")[1]}>`);
    const text = clean(m.text ?? "");
    const automatic = isAutomatic(m.headers as Map<string, unknown>, m.subject ?? "", text);
    const rules = classify({ automatic, text });
    const p: PreparedReply = {
      parsed: m,
      folder: it.folder,
      uid: it.uid ?? null,
      messageId,
      from,
      refs: refsOf(m),
      text,
      automatic,
      intent: rules,
    };
    if (!automatic && rules !== "UNSUBSCRIBE_REQUEST") forAi.push(p);
    out.push(p);
  }
  if (forAi.length && aiProvider() !== builtInProvider) {
    const enabled =
      ai === undefined ? (await loadAiSettings(db, mb.workspaceId)).aiClassificationEnabled : typeof ai === "function" ? await ai() : ai;
    if (enabled) await eachLimited(forAi, 4, async (p) => void (p.intent = await classifyWithFallback(p.text, true)));
  }
  return out;
}

/** Where a folder's sync stopped, written together with the replies of a batch. */
export interface FolderState {
  mailboxId: string;
  folder: string;
  uidValidity: string;
  lastUid: number;
}

/** What a batch of prepared messages will write: decided by reads only, before any transaction. */
export interface ReplyPlan {
  items: PreparedReply[];
  ids: string[];
  who: (Match | undefined)[];
  rows: Record<string, unknown>[];
  events: { id: string; reply_id: string; workspace_id: string; event: EventName; data: Record<string, unknown>; created_at: string }[];
  stops: { reply_id: string; campaign_id: string; lead_id: string; automatic: boolean }[];
  /** The intent tag of each matched, classified reply; applied only when the workspace has autoTagOnReply on. */
  tags: { reply_id: string; lead_id: string; name: string; tag_id: string }[];
  unsubscribes: Map<string, { leadId: string; email: string }>;
  /** Stores files or handles an unsubscribe request: more than one statement, so a transaction is needed. */
  needsTransaction: boolean;
}

/**
 * Matches a batch of prepared messages (one read, outside any transaction) and works out what storing
 * them means: email.replied (and email.positive_reply for INTERESTED) for every matched reply; an
 * unsubscribe request suppresses the address, stops every sequence and fires lead.unsubscribed with
 * source `reply`; another reply stops the lead's sequence when the campaign says so.
 */
export async function planReplies(db: DbOrTx, clock: Clock, mb: Mailbox, items: PreparedReply[]): Promise<ReplyPlan> {
  const now = clock.now();
  const who = items.length ? await matchAll(db, mb, items) : [];
  const ids = items.map(() => newId("rep"));
  const firstOf = new Map<string, number>();
  for (const [i, p] of items.entries()) if (!firstOf.has(p.messageId)) firstOf.set(p.messageId, i);
  const plan: ReplyPlan = { items, ids, who, rows: [], events: [], stops: [], tags: [], unsubscribes: new Map(), needsTransaction: false };
  for (const i of firstOf.values()) {
    const p = items[i];
    const m = p.parsed;
    const w = who[i];
    plan.rows.push({
      id: ids[i],
      workspace_id: mb.workspaceId,
      mailbox_id: mb.id,
      lead_id: w?.leadId ?? null,
      campaign_id: w?.campaignId ?? null,
      email_id: w?.emailId ?? null,
      message_id: p.messageId,
      in_reply_to: m.inReplyTo ? clean(m.inReplyTo) : null,
      refs: p.refs,
      sender: p.from,
      recipients: addresses(m.to),
      cc: addresses(m.cc),
      subject: clean(m.subject ?? ""),
      text_body: p.text,
      html_body: typeof m.html === "string" ? clean(m.html) : null,
      received_at: (m.date && !Number.isNaN(m.date.getTime()) ? m.date : now).toISOString(),
      intent: p.intent,
      is_auto_reply: p.automatic,
      folder: p.folder,
      imap_uid: p.uid,
      created_at: now.toISOString(),
    });
    if (m.attachments?.length) plan.needsTransaction = true;
    if (!w) continue;
    const ev = (event: EventName, data: Record<string, unknown>) =>
      plan.events.push({ id: newEventId(), reply_id: ids[i], workspace_id: mb.workspaceId, event, data, created_at: now.toISOString() });
    ev("email.replied", { replyId: ids[i], leadId: w.leadId, intentClassification: p.intent });
    if (p.intent === "INTERESTED") ev("email.positive_reply", { replyId: ids[i], leadId: w.leadId });
    const tag = AUTO_TAG_NAMES[p.intent];
    if (tag) plan.tags.push({ reply_id: ids[i], lead_id: w.leadId, name: tag, tag_id: newId("tag") }); // the id, should the tag be new
    if (p.intent === "UNSUBSCRIBE_REQUEST") {
      ev("lead.unsubscribed", { replyId: ids[i], leadId: w.leadId, leadEmail: w.leadEmail, source: "reply" });
      plan.unsubscribes.set(ids[i], { leadId: w.leadId, email: w.leadEmail });
      plan.needsTransaction = true;
    } else if (w.campaignId) plan.stops.push({ reply_id: ids[i], campaign_id: w.campaignId, lead_id: w.leadId, automatic: p.automatic });
  }
  return plan;
}

/**
 * Writes a planned batch with one statement — so atomically, and in one round trip — the replies, and
 * only for the rows actually inserted (a Message-ID already stored for the mailbox, or twice in the
 * batch, is a duplicate and changes nothing) their events into the outbox and the stops of their
 * sequences (stop-on-reply is the campaign's choice; an automatic reply stops it only when
 * stopOnAutoReply), and — when the workspace has autoTagOnReply on — their leads' intent tags (spec
 * 4.1; AUTO_TAG_NAMES: a tag missing in the workspace is created); with `state`, where the folder's
 * sync stopped. Received files and unsubscribe requests take more statements after it: pass a
 * transaction when `plan.needsTransaction`.
 * The statement's text never changes (rows travel as JSON parameters), so it stays prepared.
 * Results are in the order of `plan.items`.
 */
export async function writeReplies(db: DbOrTx, clock: Clock, mb: Mailbox, plan: ReplyPlan, state?: FolderState): Promise<IngestResult[]> {
  const json = (x: unknown) => JSON.stringify(x);
  const now = clock.now().toISOString();
  const states = state
    ? [{ mailbox_id: state.mailboxId, folder: state.folder, uid_validity: state.uidValidity, last_uid: state.lastUid, last_sync_at: now }]
    : [];
  const insertedRows = await runPrepared<{ id: string }>(
    db,
    sql`
    with ins as (
      insert into replies (id, workspace_id, mailbox_id, lead_id, campaign_id, email_id, message_id, in_reply_to, "references", "from", "to", cc,
        subject, text_body, html_body, received_at, intent, is_auto_reply, folder, imap_uid, created_at)
      select id, workspace_id, mailbox_id, lead_id, campaign_id, email_id, message_id, in_reply_to, refs, sender, recipients, cc,
        subject, text_body, html_body, received_at, intent, is_auto_reply, folder, imap_uid, created_at
      from jsonb_to_recordset(${json(plan.rows)}::jsonb) as r(id text, workspace_id text, mailbox_id text, lead_id text, campaign_id text,
        email_id text, message_id text, in_reply_to text, refs text[], sender jsonb, recipients jsonb, cc jsonb, subject text, text_body text,
        html_body text, received_at timestamptz, intent reply_intent, is_auto_reply boolean, folder text, imap_uid integer, created_at timestamptz)
      on conflict do nothing
      returning id
    ),
    outbox as (
      insert into events (id, workspace_id, event, data, created_at)
      select x.id, x.workspace_id, x.event, x.data, x.created_at
      from jsonb_to_recordset(${json(plan.events)}::jsonb) as x(id text, reply_id text, workspace_id text, event text, data jsonb, created_at timestamptz)
      where x.reply_id in (select id from ins)
    ),
    stopped as (
      update campaign_leads cl set status = 'REPLIED', next_send_at = null
      from jsonb_to_recordset(${json(plan.stops)}::jsonb) as x(reply_id text, campaign_id text, lead_id text, automatic boolean)
      join campaigns c on c.id = x.campaign_id
      where x.reply_id in (select id from ins) and cl.campaign_id = x.campaign_id and cl.lead_id = x.lead_id and cl.status = 'ACTIVE'
        and (case when x.automatic then c.stop_on_auto_reply else c.stop_on_reply end)
    ),
    auto_tag as (
      select x.lead_id, x.name, x.tag_id from jsonb_to_recordset(${json(plan.tags)}::jsonb) as x(reply_id text, lead_id text, name text, tag_id text)
      where x.reply_id in (select id from ins)
        and (select coalesce((w.settings->'ai'->>'autoTagOnReply')::boolean, false) from workspaces w where w.id = ${mb.workspaceId})
    ),
    tag_names as (select distinct on (lower(name)) lower(name) as key, name, tag_id from auto_tag order by lower(name)),
    tag_known as (
      select t.id, lower(t.name) as key from tags t
      where t.workspace_id = ${mb.workspaceId} and lower(t.name) in (select key from tag_names)
    ),
    tag_new as (
      -- A tag made meanwhile by someone else conflicts: DO UPDATE waits for it and returns its id.
      insert into tags (id, workspace_id, name, created_at)
      select n.tag_id, ${mb.workspaceId}::text, n.name, ${now}::timestamptz from tag_names n where n.key not in (select key from tag_known)
      on conflict (workspace_id, (lower(name))) do update set name = tags.name
      returning id, lower(name) as key
    ),
    tagged as (
      insert into lead_tags (workspace_id, lead_id, tag_id, created_at)
      select distinct ${mb.workspaceId}::text, a.lead_id, t.id, ${now}::timestamptz
      from auto_tag a join (select * from tag_known union all select * from tag_new) t on t.key = lower(a.name)
      on conflict do nothing
    ),
    saved as (
      insert into imap_state (mailbox_id, folder, uid_validity, last_uid, last_sync_at)
      select * from jsonb_to_recordset(${json(states)}::jsonb) as s(mailbox_id text, folder text, uid_validity text, last_uid integer, last_sync_at timestamptz)
      on conflict (mailbox_id, folder) do update set uid_validity = excluded.uid_validity, last_uid = excluded.last_uid, last_sync_at = excluded.last_sync_at
    )
    select id from ins`,
  );
  const inserted = new Set(insertedRows.map((r) => r.id));
  const { items, ids } = plan;

  // Received files, and an unsubscribe request: the address suppressed, every sequence to it stopped.
  for (let i = 0; i < items.length; i++)
    if (inserted.has(ids[i]) && items[i].parsed.attachments?.length)
      await storeReceivedFiles(db, mb.workspaceId, ids[i], items[i].parsed.attachments);
  const unsubscribed = [...plan.unsubscribes.entries()].filter(([id]) => inserted.has(id)).map(([, u]) => u);
  if (unsubscribed.length) {
    await addSuppressions(
      systemCtx(mb.workspaceId, { db, clock }),
      { emails: unique(unsubscribed.map((u) => u.email)) },
      "unsubscribe_reply",
    );
    await db
      .update(campaignLeads)
      .set({ status: "UNSUBSCRIBED", nextSendAt: null })
      .where(and(inArray(campaignLeads.leadId, unique(unsubscribed.map((u) => u.leadId))), eq(campaignLeads.status, "ACTIVE")));
  }
  return items.map((p, i) => ({
    replyId: ids[i],
    leadId: plan.who[i]?.leadId ?? null,
    intent: p.intent,
    duplicate: !inserted.has(ids[i]),
  }));
}

/**
 * Stores one received message and applies what it means (see planReplies). Warmup traffic and our
 * own messages are not stored (undefined).
 */
export async function ingestMessage(
  db: DbOrTx,
  clock: Clock,
  mb: Mailbox,
  m: ParsedMail,
  opts: { folder: string; uid?: number; uidValidity?: string /** read once per sync by the caller */; aiClassification?: boolean },
): Promise<IngestResult | undefined> {
  const [p] = await prepareReplies(
    db,
    mb,
    [{ parsed: m, folder: opts.folder, uid: opts.uid, uidValidity: opts.uidValidity }],
    opts.aiClassification,
  );
  if (!p) return undefined;
  const plan = await planReplies(db, clock, mb, [p]);
  const [r] = plan.needsTransaction
    ? await db.transaction((tx) => writeReplies(tx, clock, mb, plan))
    : await writeReplies(db, clock, mb, plan);
  return r;
}

/**
 * Answers written directly in a mail client, read from the Sent folder: shown in the conversation as
 * our replies with sentBy HUMAN. Messages we sent ourselves (campaign emails, replies from the app) are
 * recognised by their Message-ID and skipped, as are warmup traffic and messages that belong to no
 * lead's conversation. Their files are kept as received ones are (storeMessageFiles). Returns the new
 * sent-reply id per message (undefined when skipped).
 */
export async function ingestOwnMessages(db: DbOrTx, mb: Mailbox, ms: ParsedMail[]): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = ms.map(() => undefined);
  const items = ms.map((m) => ({ m, messageId: m.messageId ? clean(m.messageId) : undefined, refs: refsOf(m), to: addresses(m.to) }));
  const ids = unique(items.flatMap((i) => (i.messageId && !isWarmup(i.m) ? [i.messageId] : [])));
  if (!ids.length) return out;
  const known = new Set([
    ...(
      await db
        .select({ id: emails.messageId })
        .from(emails)
        .where(and(eq(emails.mailboxId, mb.id), sql`${emails.messageId} = ${anyOf(ids)}`))
    ).map((r) => r.id),
    ...(
      await db
        .select({ id: sentReplies.messageId })
        .from(sentReplies)
        .where(and(eq(sentReplies.mailboxId, mb.id), sql`${sentReplies.messageId} = ${anyOf(ids)}`))
    ).map((r) => r.id),
  ]);
  const todo: number[] = [];
  const seen = new Set<string>();
  items.forEach((it, i) => {
    if (!it.messageId || isWarmup(it.m) || known.has(it.messageId) || seen.has(it.messageId)) return;
    seen.add(it.messageId);
    todo.push(i);
  });
  if (!todo.length) return out;

  const leadOf = new Map<number, { leadId: string; replyId: string | null }>();
  const refs = unique(todo.flatMap((i) => items[i].refs));
  if (refs.length) {
    // A reply of the lead's this answers, else one of our campaign emails it follows.
    const rs = await db
      .select({ id: replies.id, leadId: replies.leadId, messageId: replies.messageId })
      .from(replies)
      .where(and(eq(replies.mailboxId, mb.id), sql`${replies.messageId} = ${anyOf(refs)}`));
    for (const i of todo) {
      const r = rs.find((x) => x.leadId && items[i].refs.includes(x.messageId));
      if (r) leadOf.set(i, { leadId: r.leadId!, replyId: r.id });
    }
    const rest = todo.filter((i) => !leadOf.has(i) && items[i].refs.length);
    if (rest.length) {
      const es = await db
        .select({ leadId: emails.leadId, messageId: emails.messageId })
        .from(emails)
        .where(and(eq(emails.mailboxId, mb.id), sql`${emails.messageId} = ${anyOf(unique(rest.flatMap((i) => items[i].refs)))}`));
      for (const i of rest) {
        const e = es.find((x) => x.leadId && items[i].refs.includes(x.messageId));
        if (e) leadOf.set(i, { leadId: e.leadId!, replyId: null });
      }
    }
  }
  const byTo = todo.filter((i) => !leadOf.has(i) && items[i].to.length);
  if (byTo.length) {
    const ls = await db
      .select({ id: leads.id, address: sql<string>`lower(${leads.email})` })
      .from(leads)
      .where(
        and(
          eq(leads.workspaceId, mb.workspaceId),
          sql`lower(${leads.email}) = ${anyOf(unique(byTo.flatMap((i) => items[i].to.map((a) => a.address))))}`,
        ),
      );
    const found = new Map(ls.map((l) => [l.address, l.id]));
    for (const i of byTo) {
      const a = items[i].to.find((x) => found.has(x.address));
      if (a) leadOf.set(i, { leadId: found.get(a.address)!, replyId: null });
    }
  }
  const rows = todo
    .filter((i) => leadOf.has(i)) // not part of a lead's conversation: skipped
    .map((i) => {
      const { m, messageId, refs: r, to } = items[i];
      const at = m.date && !Number.isNaN(m.date.getTime()) ? m.date : new Date();
      out[i] = newId("srp");
      return {
        id: out[i]!,
        workspaceId: mb.workspaceId,
        mailboxId: mb.id,
        leadId: leadOf.get(i)!.leadId,
        replyId: leadOf.get(i)!.replyId,
        to,
        cc: addresses(m.cc),
        bcc: addresses(m.bcc),
        subject: clean(m.subject ?? ""),
        body: clean(m.text ?? ""),
        html: typeof m.html === "string" ? clean(m.html) : null,
        status: "SENT" as const,
        sentBy: "HUMAN" as const,
        messageId: messageId!,
        inReplyTo: m.inReplyTo ? clean(m.inReplyTo) : null,
        references: r,
        queuedAt: at,
        sentAt: at,
        createdAt: at,
      };
    });
  if (!rows.length) return out;
  // Their files, kept like received ones (spec 2.9: `attachments` of our replies): in one transaction with them.
  const withFiles = todo.filter((i) => out[i] && items[i].m.attachments?.length);
  if (!withFiles.length) await db.insert(sentReplies).values(rows);
  else {
    await db.transaction(async (tx) => {
      await tx.insert(sentReplies).values(rows);
      for (const i of withFiles) await storeMessageFiles(tx, mb.workspaceId, { sentReplyId: out[i]! }, items[i].m.attachments);
    });
  }
  return out;
}

/** One Sent-folder message (see ingestOwnMessages). */
export async function ingestOwnMessage(db: DbOrTx, mb: Mailbox, m: ParsedMail): Promise<string | undefined> {
  return (await ingestOwnMessages(db, mb, [m]))[0];
}
