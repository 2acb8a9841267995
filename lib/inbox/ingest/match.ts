import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { recordset, selectRows } from "../../../db/bulk";
import { type Address, emails, leads } from "../../../db/schema";
import { isFreeMailDomain } from "../../mail/free-mail";
import type { Mailbox } from "./intent";

/** Who a received message is from: the lead, and the campaign email it answers when known. */
export type Match = { leadId: string; leadEmail: string; campaignId: string | null; emailId: string | null };

type Via = "thread" | "address" | "colleague";

/** One candidate found by one of the three rules; `key` is the Message-ID, address or domain it was found by. */
type Candidate = {
  via: Via;
  key: string;
  lead_id: string | null;
  lead_email: string | null;
  campaign_id: string | null;
  email_id: string | null;
  at: number | string | null;
};

/** A colleague is someone at the lead's company domain: never at a free mail service's. */
function companyDomain(a: Address): string | null {
  const d = a.address.slice(a.address.lastIndexOf("@") + 1);
  return isFreeMailDomain(d) ? null : d;
}

/**
 * The candidates of all three rules for a batch, in one statement: our emails named by the thread
 * headers; the leads with the senders' addresses (each with the latest email sent to it); and, for
 * senders who are not leads, the latest email this mailbox sent to a lead at their domain.
 */
function candidates(mb: Mailbox, input: { refs: string[]; address: string | null; domain: string | null }[]) {
  const items = recordset("i", { refs: "jsonb", address: "text", domain: "text" }, input);
  const ws = mb.workspaceId;
  return sql`
    with items as (select * from ${items.from}),
    thread as (
      select ${emails.messageId} as key, ${emails.leadId} as lead_id, ${emails.campaignId} as campaign_id, ${emails.id} as email_id,
        ${emails.createdAt} as at
      from ${emails}
      where ${emails.workspaceId} = ${ws} and ${emails.messageId} = any(array(select jsonb_array_elements_text(items.refs) from items))
    ),
    address as (
      select lower(${leads.email}) as key, ${leads.id} as lead_id, ${leads.email} as lead_email, x.campaign_id, x.email_id
      from ${leads}
      left join lateral (
        select ${emails.id} as email_id, ${emails.campaignId} as campaign_id from ${emails}
        where ${emails.leadId} = ${leads.id} order by ${emails.createdAt} desc limit 1
      ) x on true
      where ${leads.workspaceId} = ${ws} and lower(${leads.email}) = any(array(select address from items where address is not null))
    ),
    colleague as (
      select d.domain as key, x.lead_id, x.campaign_id, x.email_id
      from (
        select distinct items.domain from items
        where items.domain is not null and not exists (select 1 from address a where a.key = items.address)
      ) d
      cross join lateral (
        select ${emails.leadId} as lead_id, ${emails.campaignId} as campaign_id, ${emails.id} as email_id from ${emails}
        where ${emails.workspaceId} = ${ws} and ${emails.mailboxId} = ${mb.id} and ${emails.leadId} is not null
          and lower(split_part(${emails.leadEmail}, '@', 2)) = d.domain
        order by ${emails.createdAt} desc limit 1
      ) x
    )
    select 'thread' as via, t.key, t.lead_id, ${leads.email} as lead_email, t.campaign_id, t.email_id,
        extract(epoch from t.at)::float8 as at
      from thread t left join ${leads} on ${leads.id} = t.lead_id
    union all select 'address', key, lead_id, lead_email, campaign_id, email_id, null from address
    union all select 'colleague', c.key, c.lead_id, ${leads.email}, c.campaign_id, c.email_id, null
      from colleague c join ${leads} on ${leads.id} = c.lead_id`;
}

/** A candidate as a match; a lead deleted meanwhile (emails keep lead_id only while it exists) matches nothing. */
function toMatch(r: Candidate | undefined): Match | undefined {
  return r?.lead_id && r.lead_email !== null
    ? { leadId: r.lead_id, leadEmail: r.lead_email, campaignId: r.campaign_id, emailId: r.email_id }
    : undefined;
}

/**
 * Finds who each received message is from, in this order: our Message-IDs
 * in In-Reply-To/References, then the sender's address among the workspace's leads, then a colleague at
 * the domain of a lead this mailbox emailed. Nothing found: the message is kept unmatched (undefined).
 * One read for the whole batch (candidates); the order of the rules is applied here.
 */
export async function matchReplies(
  db: DbOrTx,
  mb: Mailbox,
  items: { refs: string[]; from: Address | null }[],
): Promise<(Match | undefined)[]> {
  const input = items.map((it) => ({ refs: it.refs, address: it.from?.address ?? null, domain: it.from ? companyDomain(it.from) : null }));
  if (!input.some((i) => i.refs.length || i.address)) return items.map(() => undefined);
  const rows = await selectRows<Candidate>(db, candidates(mb, input));
  const thread = rows.filter((r) => r.via === "thread");
  const byAddress = new Map(rows.filter((r) => r.via === "address").map((r) => [r.key, r]));
  const byDomain = new Map(rows.filter((r) => r.via === "colleague").map((r) => [r.key, r]));
  return items.map((it, i) => {
    if (it.refs.length) {
      const refs = new Set(it.refs);
      // The newest of our emails the headers name decides (as `order by created_at desc limit 1` did).
      const newest = thread
        .filter((r) => refs.has(r.key))
        .sort((a, b) => Number(b.at) - Number(a.at) || Number(!!b.lead_id) - Number(!!a.lead_id))[0];
      if (newest?.lead_id) return toMatch(newest);
    }
    if (!it.from) return undefined;
    return toMatch(byAddress.get(it.from.address)) ?? toMatch(input[i].domain ? byDomain.get(input[i].domain) : undefined);
  });
}
