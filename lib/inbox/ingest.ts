import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { ParsedMail, AddressObject } from "mailparser";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, emails, leads, replies, sentReplies, type Address } from "../../db/schema";
import type { Clock } from "../clock";
import { emitEvents, type EventRow } from "../events/emit";
import { newId } from "../ids";
import { hasWarmupHeader } from "../mail/warmup";
import { addSuppressions } from "../suppressions/suppressions";
import { aiProvider, builtInProvider, classifyWithFallback } from "../ai/provider";
import { loadAiSettings } from "../ai/settings";
import { classify, isAutomatic, type Intent } from "./classify";
import { storeReceivedFiles } from "./files";

type Mailbox = { id: string; workspaceId: string; email: string };

/** Postgres text and jsonb refuse NUL characters: a message that carries one is stored without them. */
function clean(s: string): string {
  return s.includes("\u0000") ? s.replace(/\u0000/g, "") : s;
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

type Match = { leadId: string; campaignId: string | null; emailId: string | null };

/**
 * Finds who each received message is from (spec 2.9 / issue 6 rule 1), in this order: our Message-IDs
 * in In-Reply-To/References, then the sender's address among the workspace's leads, then a colleague at
 * the domain of a lead this mailbox emailed. Nothing found: the message is kept unmatched. For the
 * whole batch: one statement for the thread headers and the senders' addresses, then one for the
 * colleagues of the messages still unmatched.
 */
async function matchAll(db: DbOrTx, mb: Mailbox, items: { refs: string[]; from: Address | null }[]): Promise<(Match | undefined)[]> {
  const out: (Match | undefined)[] = items.map(() => undefined);
  const allRefs = unique(items.flatMap((i) => i.refs));
  const senders = unique(items.flatMap((i) => (i.from ? [i.from.address] : [])));
  if (allRefs.length || senders.length) {
    // Both cheap index probes, so one statement: our emails named by the thread headers, and the
    // leads with the senders' addresses (each with the latest email sent to it).
    const rows = (await db.execute(sql`
      select 'thread' as via, e.message_id as key, e.lead_id, e.campaign_id, e.id as email_id, extract(epoch from e.created_at)::float8 as at
      from emails e
      where e.workspace_id = ${mb.workspaceId} and e.message_id = ${anyOf(allRefs)}
      union all
      select 'address', lower(l.email), l.id, x.campaign_id, x.id, null
      from leads l
      left join lateral (select id, campaign_id from emails where lead_id = l.id order by created_at desc limit 1) x on true
      where l.workspace_id = ${mb.workspaceId} and lower(l.email) = ${anyOf(senders)}`)) as unknown as {
      via: "thread" | "address";
      key: string;
      lead_id: string | null;
      campaign_id: string | null;
      email_id: string | null;
      at: number | string | null;
    }[];
    const thread = rows.filter((r) => r.via === "thread");
    const byAddress = new Map(rows.filter((r) => r.via === "address").map((r) => [r.key, r]));
    items.forEach((it, i) => {
      if (it.refs.length) {
        const refs = new Set(it.refs);
        // The newest of our emails the headers name decides (as `order by created_at desc limit 1` did).
        const newest = thread
          .filter((r) => refs.has(r.key))
          .sort((a, b) => Number(b.at) - Number(a.at) || Number(!!b.lead_id) - Number(!!a.lead_id))[0];
        if (newest?.lead_id) {
          out[i] = { leadId: newest.lead_id, campaignId: newest.campaign_id, emailId: newest.email_id };
          return;
        }
      }
      const r = it.from ? byAddress.get(it.from.address) : undefined;
      if (r) out[i] = { leadId: r.lead_id!, campaignId: r.campaign_id, emailId: r.email_id };
    });
  }

  const domainOf = (a: Address) => a.address.slice(a.address.lastIndexOf("@") + 1);
  const domains = unique(items.flatMap((it, i) => (!out[i] && it.from ? [domainOf(it.from)] : [])));
  if (domains.length) {
    // A colleague: the latest email this mailbox sent to a lead at the sender's domain.
    const rows = (await db.execute(sql`
      select d.domain, e.lead_id, e.campaign_id, e.id
      from jsonb_array_elements_text(${JSON.stringify(domains)}::jsonb) as d(domain)
      cross join lateral (
        select e.lead_id, e.campaign_id, e.id from emails e
        where e.workspace_id = ${mb.workspaceId} and e.mailbox_id = ${mb.id} and e.lead_id is not null
          and lower(split_part(e.lead_email, '@', 2)) = d.domain
        order by e.created_at desc limit 1
      ) e`)) as unknown as { domain: string; lead_id: string; campaign_id: string | null; id: string }[];
    const found = new Map(rows.map((r) => [r.domain, r]));
    items.forEach((it, i) => {
      const r = !out[i] && it.from ? found.get(domainOf(it.from)) : undefined;
      if (r) out[i] = { leadId: r.lead_id, campaignId: r.campaign_id, emailId: r.id };
    });
  }
  return out;
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
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
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
    const p: PreparedReply = { parsed: m, folder: it.folder, uid: it.uid ?? null, messageId, from, refs: refsOf(m), text, automatic, intent: rules };
    if (!automatic && rules !== "UNSUBSCRIBE_REQUEST") forAi.push(p);
    out.push(p);
  }
  if (forAi.length && aiProvider() !== builtInProvider) {
    const enabled = ai === undefined ? (await loadAiSettings(db, mb.workspaceId)).aiClassificationEnabled : typeof ai === "function" ? await ai() : ai;
    if (enabled) await eachLimited(forAi, 4, async (p) => void (p.intent = await classifyWithFallback(p.text, true)));
  }
  return out;
}

/**
 * Stores prepared messages in one go, in the caller's transaction, and applies what they mean:
 * email.replied (and email.positive_reply for INTERESTED); an unsubscribe request suppresses the
 * address, stops every sequence and fires lead.unsubscribed with source `reply`; a reply stops the
 * lead's sequence when the campaign says so. A Message-ID already stored for the mailbox (or twice in
 * the batch) is a duplicate and changes nothing. Results are in the order of `items`.
 */
export async function storeReplies(tx: DbOrTx, clock: Clock, mb: Mailbox, items: PreparedReply[]): Promise<IngestResult[]> {
  if (items.length === 0) return [];
  const now = clock.now();
  const who = await matchAll(tx, mb, items);
  const ids = items.map(() => newId("rep"));
  const firstOf = new Map<string, number>();
  items.forEach((p, i) => firstOf.has(p.messageId) || firstOf.set(p.messageId, i));
  const rows = [...firstOf.values()].map((i) => {
    const p = items[i];
    const m = p.parsed;
    return {
      id: ids[i],
      workspaceId: mb.workspaceId,
      mailboxId: mb.id,
      leadId: who[i]?.leadId ?? null,
      campaignId: who[i]?.campaignId ?? null,
      emailId: who[i]?.emailId ?? null,
      messageId: p.messageId,
      inReplyTo: m.inReplyTo ? clean(m.inReplyTo) : null,
      references: p.refs,
      from: p.from,
      to: addresses(m.to),
      cc: addresses(m.cc),
      subject: clean(m.subject ?? ""),
      textBody: p.text,
      htmlBody: typeof m.html === "string" ? clean(m.html) : null,
      receivedAt: m.date && !Number.isNaN(m.date.getTime()) ? m.date : now,
      intent: p.intent,
      isAutoReply: p.automatic,
      folder: p.folder,
      imapUid: p.uid,
      createdAt: now,
    };
  });
  const inserted = new Set((await tx.insert(replies).values(rows).onConflictDoNothing().returning({ id: replies.id })).map((r) => r.id));
  const results: IngestResult[] = items.map((p, i) => ({ replyId: ids[i], leadId: who[i]?.leadId ?? null, intent: p.intent, duplicate: !inserted.has(ids[i]) }));
  const fresh = items.map((_, i) => i).filter((i) => inserted.has(ids[i]));

  for (const i of fresh) if (items[i].parsed.attachments?.length) await storeReceivedFiles(tx, mb.workspaceId, ids[i], items[i].parsed.attachments);

  const matched = fresh.filter((i) => who[i]);
  if (!matched.length) return results;
  const unsubscribing = unique(matched.filter((i) => items[i].intent === "UNSUBSCRIBE_REQUEST").map((i) => who[i]!.leadId));
  const leadEmail = new Map(
    unsubscribing.length ? (await tx.select({ id: leads.id, email: leads.email }).from(leads).where(inArray(leads.id, unsubscribing))).map((l) => [l.id, l.email]) : [],
  );
  const events: EventRow[] = [];
  const stops: { campaign_id: string; lead_id: string; automatic: boolean }[] = [];
  const ev = (event: EventRow["event"], data: Record<string, unknown>) => events.push({ workspaceId: mb.workspaceId, event, data, at: now });
  for (const i of matched) {
    const w = who[i]!;
    const intent = items[i].intent;
    ev("email.replied", { replyId: ids[i], leadId: w.leadId, intentClassification: intent });
    if (intent === "INTERESTED") ev("email.positive_reply", { replyId: ids[i], leadId: w.leadId });
    const email = leadEmail.get(w.leadId);
    if (intent === "UNSUBSCRIBE_REQUEST" && email !== undefined) ev("lead.unsubscribed", { replyId: ids[i], leadId: w.leadId, leadEmail: email, source: "reply" });
    else if (w.campaignId) stops.push({ campaign_id: w.campaignId, lead_id: w.leadId, automatic: items[i].automatic });
  }
  if (leadEmail.size) {
    await addSuppressions({ workspaceId: mb.workspaceId, actor: { type: "system" }, db: tx, clock }, { emails: [...leadEmail.values()] }, "unsubscribe_reply");
    await tx
      .update(campaignLeads)
      .set({ status: "UNSUBSCRIBED", nextSendAt: null })
      .where(and(inArray(campaignLeads.leadId, [...leadEmail.keys()]), eq(campaignLeads.status, "ACTIVE")));
  }
  if (stops.length) {
    // Stop-on-reply is the campaign's choice; an automatic reply stops it only when stopOnAutoReply.
    await tx.execute(sql`
      update campaign_leads cl set status = 'REPLIED', next_send_at = null
      from jsonb_to_recordset(${JSON.stringify(stops)}::jsonb) as x(campaign_id text, lead_id text, automatic boolean)
      join campaigns c on c.id = x.campaign_id
      where cl.campaign_id = x.campaign_id and cl.lead_id = x.lead_id and cl.status = 'ACTIVE'
        and (case when x.automatic then c.stop_on_auto_reply else c.stop_on_reply end)`);
  }
  await emitEvents(tx, events);
  return results;
}

/**
 * Stores one received message and applies what it means (see storeReplies). Warmup traffic and our
 * own messages are not stored (undefined).
 */
export async function ingestMessage(
  db: DbOrTx,
  clock: Clock,
  mb: Mailbox,
  m: ParsedMail,
  opts: { folder: string; uid?: number; uidValidity?: string; /** read once per sync by the caller */ aiClassification?: boolean },
): Promise<IngestResult | undefined> {
  const [p] = await prepareReplies(db, mb, [{ parsed: m, folder: opts.folder, uid: opts.uid, uidValidity: opts.uidValidity }], opts.aiClassification);
  if (!p) return undefined;
  const [r] = await db.transaction((tx) => storeReplies(tx, clock, mb, [p]));
  return r;
}

/**
 * Answers written directly in a mail client, read from the Sent folder: shown in the conversation as
 * our replies with sentBy HUMAN. Messages we sent ourselves (campaign emails, replies from the app) are
 * recognised by their Message-ID and skipped, as are warmup traffic and messages that belong to no
 * lead's conversation. Returns the new sent-reply id per message (undefined when skipped).
 */
export async function ingestOwnMessages(db: DbOrTx, mb: Mailbox, ms: ParsedMail[]): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = ms.map(() => undefined);
  const items = ms.map((m) => ({ m, messageId: m.messageId ? clean(m.messageId) : undefined, refs: refsOf(m), to: addresses(m.to) }));
  const ids = unique(items.flatMap((i) => (i.messageId && !isWarmup(i.m) ? [i.messageId] : [])));
  if (!ids.length) return out;
  const known = new Set([
    ...(await db.select({ id: emails.messageId }).from(emails).where(and(eq(emails.mailboxId, mb.id), sql`${emails.messageId} = ${anyOf(ids)}`))).map((r) => r.id),
    ...(await db.select({ id: sentReplies.messageId }).from(sentReplies).where(and(eq(sentReplies.mailboxId, mb.id), sql`${sentReplies.messageId} = ${anyOf(ids)}`))).map((r) => r.id),
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
    const rs = await db.select({ id: replies.id, leadId: replies.leadId, messageId: replies.messageId }).from(replies).where(and(eq(replies.mailboxId, mb.id), sql`${replies.messageId} = ${anyOf(refs)}`));
    for (const i of todo) {
      const r = rs.find((x) => x.leadId && items[i].refs.includes(x.messageId));
      if (r) leadOf.set(i, { leadId: r.leadId!, replyId: r.id });
    }
    const rest = todo.filter((i) => !leadOf.has(i) && items[i].refs.length);
    if (rest.length) {
      const es = await db.select({ leadId: emails.leadId, messageId: emails.messageId }).from(emails).where(and(eq(emails.mailboxId, mb.id), sql`${emails.messageId} = ${anyOf(unique(rest.flatMap((i) => items[i].refs)))}`));
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
      .where(and(eq(leads.workspaceId, mb.workspaceId), sql`lower(${leads.email}) = ${anyOf(unique(byTo.flatMap((i) => items[i].to.map((a) => a.address))))}`));
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
  if (rows.length) await db.insert(sentReplies).values(rows);
  return out;
}

/** One Sent-folder message (see ingestOwnMessages). */
export async function ingestOwnMessage(db: DbOrTx, mb: Mailbox, m: ParsedMail): Promise<string | undefined> {
  return (await ingestOwnMessages(db, mb, [m]))[0];
}
