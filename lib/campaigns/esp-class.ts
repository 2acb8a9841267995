import { sql } from "drizzle-orm";
import { recordset, selectRows, valuesOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { mapLimit } from "../concurrency";
import type { JobCtx } from "../ctx";
import { rematchEspClass } from "./assign-mailbox";
import { espClassOf, providerFromAddressDomain, providerFromMx, type EspClass } from "../mail/providers";
import { resolveMx } from "../net/dns";

/**
 * A lead's ESP class: GOOGLE, MICROSOFT, YAHOO, ZOHO or OTHER from its
 * address domain's MX records, UNKNOWN until the domain has been looked up. Campaign ESP matching
 * (assign-mailbox.ts) reads it when a lead is added to a campaign or reassigned, and each pass
 * below re-matches the campaign leads of the leads it has just classified (rematchEspClass): a lead added
 * while UNKNOWN was assigned as if matching were off.
 *
 * Each address domain is looked up once for all workspaces and cached in `lead_domains`; the job below
 * writes the answer to every lead of the domain in one statement. How a domain is classified:
 * - a consumer address domain the provider presets know (gmail.com, outlook.com, yahoo.com …): no DNS;
 * - MX hosts of a known provider (…google.com, …outlook.com, …yahoodns.net, …zoho.com): that class;
 * - other MX hosts, or no MX at all (NXDOMAIN, no records, null MX): OTHER — a domain without MX is
 *   certainly not hosted by one of the big four, and leaving it UNKNOWN would only retry it forever;
 * - no answer (timeout, SERVFAIL, refused): the previous class is kept (UNKNOWN the first time) and the
 *   domain is parked: retried after 15 min, 1 h, 4 h, 16 h, then daily, never on every tick.
 * Answers are re-checked after 30 days; a domain that moved provider moves its leads with it. A cached
 * domain no lead uses any more is dropped at its re-check instead of being looked up.
 */

/** The address domain of `leads.email`, written exactly as leads_esp_class_domain_idx indexes it. */
const LEAD_DOMAIN = sql.raw(`lower(split_part(l.email, '@', 2))`);

export const ESP_BATCH_LEADS = 500;
/** UNKNOWN leads classified per statement (see writeClasses). */
export const ESP_MOVE_LIMIT = 10_000;
/**
 * Domains looked up per pass, and at once: with DNS_TIMEOUT_MS 3000 and 2 tries, a pass of only dead
 * domains still ends within about 12 s, so one bad list cannot hold up the tick's other jobs for minutes.
 */
const MAX_LOOKUPS = 64;
const LOOKUP_CONCURRENCY = 32;
export const RECHECK_AFTER_MS = 30 * 24 * 3600_000;
/** How long a claimed domain stays parked while one worker looks it up (a crash frees it after this). */
const CLAIM_MS = 5 * 60_000;
/** A run starts no new batch after this much wall time, so the other jobs of the tick are not held up. */
const RUN_BUDGET_MS = 10_000;

export type DomainAnswer = { espClass: Exclude<EspClass, "UNKNOWN">; mx: string | null } | { error: string };

/** Classifies one address domain: by name when it is a known consumer domain, otherwise by its MX records. */
export async function lookupEspClass(domain: string): Promise<DomainAnswer> {
  const known = providerFromAddressDomain(domain);
  if (known) return { espClass: espClassOf(known) as Exclude<EspClass, "UNKNOWN">, mx: null };
  const r = await resolveMx(domain);
  if (!r.ok) return { error: r.error };
  const hosts = r.records.map((m) => m.exchange.toLowerCase().replace(/\.$/, "")).filter(Boolean);
  const provider = providerFromMx(hosts);
  return { espClass: provider ? (espClassOf(provider) as Exclude<EspClass, "UNKNOWN">) : "OTHER", mx: hosts[0] ?? null };
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Cached domains due for their re-check (or their retry), claimed by moving next_check_at (SKIP LOCKED,
 * so two workers never look one domain up at once). Claimed domains no lead uses any more are deleted.
 */
async function claimDueDomains(db: DbOrTx, now: Date, limit: number): Promise<{ domain: string; old: EspClass }[]> {
  return selectRows<{ domain: string; old: EspClass }>(
    db,
    sql`
    with due as (
      select domain from lead_domains where next_check_at <= ${ts(now)}
      order by next_check_at limit ${limit} for update skip locked
    ), gone as (
      delete from lead_domains c using due
      where c.domain = due.domain
        and not exists (select 1 from leads l where l.esp_class = c.esp_class and ${LEAD_DOMAIN} = c.domain)
      returning c.domain
    )
    update lead_domains c set next_check_at = ${ts(new Date(now.getTime() + CLAIM_MS))}
    from due where c.domain = due.domain and due.domain not in (select domain from gone)
    returning c.domain, c.esp_class as old`,
  );
}

type Pending = { domain: string; leads: number; cached: EspClass | null };

/**
 * The domains of up to `limit` UNKNOWN leads, leaving out domains parked (being looked up, or waiting to
 * retry a failed look-up), with the cached class when there is one.
 */
async function pendingDomains(db: DbOrTx, now: Date, limit: number): Promise<Pending[]> {
  const parked = sql`select 1 from lead_domains p
    where p.domain = ${LEAD_DOMAIN} and p.esp_class = 'UNKNOWN' and p.next_check_at > ${ts(now)}`;
  return selectRows<Pending>(
    db,
    sql`
    select s.domain, count(*)::int as leads, c.esp_class as cached
    from (
      select ${LEAD_DOMAIN} as domain from leads l
      where l.esp_class = 'UNKNOWN'
        and not exists (${parked})
      limit ${limit}
    ) s left join lead_domains c on c.domain = s.domain
    group by s.domain, c.esp_class`,
  );
}

/** Claims never-seen domains (a placeholder row) and due UNKNOWN ones; returns those this run may look up. */
async function claimNewDomains(db: DbOrTx, now: Date, domains: string[]): Promise<string[]> {
  if (domains.length === 0) return [];
  const rows = await selectRows<{ domain: string }>(
    db,
    sql`
    insert into lead_domains as c (domain, next_check_at)
    select d.domain, ${ts(new Date(now.getTime() + CLAIM_MS))} from ${valuesOf(domains)} as d(domain)
    on conflict (domain) do update set next_check_at = excluded.next_check_at
      where c.esp_class = 'UNKNOWN' and c.next_check_at <= ${ts(now)}
    returning c.domain`,
  );
  return rows.map((r) => r.domain);
}

interface Looked {
  domain: string;
  /** The class the domain's leads have now (UNKNOWN for a first look-up). */
  old: EspClass;
  answer: DomainAnswer;
}

/**
 * One statement: stores each answer in lead_domains (a failure keeps the class and backs off), then
 * gives the domains' UNKNOWN leads their class — every lead of the domain, not only the batch's, up to
 * `moveLimit` rows per statement so that 100,000 leads at one domain do not hold their row locks for
 * seconds (the rest take the cached class in the next passes, without a look-up). A re-check whose
 * class changed moves all the domain's leads of the old class (a provider move: rare).
 * `fromCache` are UNKNOWN leads' domains whose class is already cached. Returns the ids of the leads
 * whose class it set.
 */
async function writeClasses(
  db: DbOrTx,
  now: Date,
  looked: Looked[],
  fromCache: { domain: string; espClass: EspClass }[],
  moveLimit: number,
): Promise<string[]> {
  if (looked.length === 0 && fromCache.length === 0) return [];
  const v = recordset(
    "v",
    { domain: "text", old: "text", esp_class: "text", mx: "text", error: "text" },
    looked.map((l) =>
      "error" in l.answer
        ? { domain: l.domain, old: l.old, esp_class: null, mx: null, error: l.answer.error.slice(0, 500) }
        : { domain: l.domain, old: l.old, esp_class: l.answer.espClass, mx: l.answer.mx, error: null },
    ),
  );
  const a = recordset(
    "a",
    { domain: "text", esp_class: "text" },
    fromCache.map((c) => ({ domain: c.domain, esp_class: c.espClass })),
  );
  const recheck = ts(new Date(now.getTime() + RECHECK_AFTER_MS));
  const [{ ids }] = await selectRows<{ ids: string[] }>(
    db,
    sql`
    with v as (select * from ${v.from}), cached as (
      update lead_domains c set
        esp_class = coalesce(v.esp_class::esp_class, c.esp_class),
        mx = case when v.error is null then v.mx else c.mx end,
        error = v.error,
        failures = case when v.error is null then 0 else c.failures + 1 end,
        checked_at = case when v.error is null then ${ts(now)} else c.checked_at end,
        next_check_at = case when v.error is null then ${recheck}
          else ${ts(now)} + least(interval '15 minutes' * power(4, least(c.failures, 4)), interval '1 day') end
      from v where c.domain = v.domain
      returning c.domain, v.old::esp_class as old, c.esp_class as new
    ), moves as (
      select domain, old, new from cached
      union all
      select a.domain, 'UNKNOWN'::esp_class, a.esp_class::esp_class
      from ${a.from}
    ), first as (
      select l.id, m.new from moves m join leads l on l.esp_class = 'UNKNOWN' and ${LEAD_DOMAIN} = m.domain
      where m.old = 'UNKNOWN' and m.new <> 'UNKNOWN'
      limit ${moveLimit}
    ), classified as (
      update leads l set esp_class = f.new from first f where l.id = f.id returning l.id
    ), moved as (
      update leads l set esp_class = m.new from moves m
      where m.old <> 'UNKNOWN' and m.new <> m.old and l.esp_class = m.old and ${LEAD_DOMAIN} = m.domain
      returning l.id
    )
    select coalesce((select array_agg(id) from (select id from classified union all select id from moved) x), '{}') as ids`,
  );
  return ids;
}

export interface EspClassRunResult {
  lookedUp: number;
  failed: number;
  fromCache: number;
  classified: number;
  /** Campaign leads moved to a pool mailbox of their lead's new class (or off theirs under STRICT). */
  rematched: number;
  batches: number;
}

/**
 * One pass: re-checks due cached domains, then classifies a batch of UNKNOWN leads, with at most
 * `maxLookups` DNS look-ups. Returns what it did; `more` is false when there was nothing left to do.
 */
export async function classifyBatch(
  db: DbOrTx,
  now: Date,
  {
    batchLeads = ESP_BATCH_LEADS,
    moveLimit = ESP_MOVE_LIMIT,
    maxLookups = MAX_LOOKUPS,
  }: { batchLeads?: number; moveLimit?: number; maxLookups?: number } = {},
): Promise<EspClassRunResult & { more: boolean }> {
  const due = await claimDueDomains(db, now, Math.ceil(maxLookups / 2));
  const pending = await pendingDomains(db, now, batchLeads);
  const fromCache = pending.filter((p) => p.cached && p.cached !== "UNKNOWN").map((p) => ({ domain: p.domain, espClass: p.cached! }));
  const dueNames = new Set(due.map((d) => d.domain));
  // Domains with the most waiting leads first; the rest wait for the next pass.
  const fresh = pending
    .filter((p) => (!p.cached || p.cached === "UNKNOWN") && !dueNames.has(p.domain))
    .sort((a, b) => b.leads - a.leads)
    .slice(0, Math.max(0, maxLookups - due.length));
  const claimed = await claimNewDomains(
    db,
    now,
    fresh.map((p) => p.domain),
  );
  const toLook: { domain: string; old: EspClass }[] = [...due, ...claimed.map((domain) => ({ domain, old: "UNKNOWN" as EspClass }))];
  const lookUp = async (d: (typeof toLook)[number]) => ({ ...d, answer: await lookupEspClass(d.domain) });
  const looked: Looked[] = await mapLimit(toLook, LOOKUP_CONCURRENCY, lookUp);
  const classifiedIds = await writeClasses(db, now, looked, fromCache, moveLimit);
  // The classified leads' campaign leads under ESP matching, in one pass (at most moveLimit leads plus a
  // re-check's provider moves).
  const rematch = await rematchEspClass(db, classifiedIds);
  return {
    lookedUp: looked.length,
    failed: looked.filter((l) => "error" in l.answer).length,
    fromCache: fromCache.length,
    classified: classifiedIds.length,
    rematched: rematch.moved + rematch.unassigned,
    batches: 1,
    more: due.length > 0 || pending.length > 0,
  };
}

/** Classifies leads by their address domain's MX (see the top of this file), within the run budget. */
export async function runLeadEspClass({ db, clock }: JobCtx) {
  const total: EspClassRunResult = { lookedUp: 0, failed: 0, fromCache: 0, classified: 0, rematched: 0, batches: 0 };
  const until = clock.now().getTime() + RUN_BUDGET_MS;
  for (let i = 0; i < 20 && clock.now().getTime() < until; i++) {
    const r = await classifyBatch(db, clock.now());
    total.lookedUp += r.lookedUp;
    total.failed += r.failed;
    total.fromCache += r.fromCache;
    total.classified += r.classified;
    total.rematched += r.rematched;
    total.batches++;
    if (!r.more) break;
  }
  return { ...total };
}
