import { randomBytes } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { events as ev, webhookDeliveries as d, webhooks } from "../../db/schema";
import type { Clock } from "../clock";
import { type Claimed, LEASE_MS } from "./claim-deliveries";
import type { Target } from "./send";
import { twoStepTransaction } from "../../db/pipelined";

/** Events fanned out per transaction. */
export const DISPATCH_BATCH = 500;

/** The event envelope (see docs/webhooks.md, What a request looks like), serialised once: every retry and resend sends these exact bytes. */
export function envelope(e: { id: string; event: string; createdAt: Date; data: Record<string, unknown> }): string {
  return JSON.stringify({ id: e.id, event: e.event, createdAt: e.createdAt.toISOString(), data: e.data });
}

export interface Dispatched {
  events: number;
  deliveries: number;
  /** With `lease`: the new deliveries, leased to the caller, with what sending them needs. */
  leased: Claimed[];
}

type EventRow = { id: string; workspaceId: string; event: string; data: Record<string, unknown>; createdAt: string };
/** A webhook as the batch's JSON carries it (its timestamp as text). */
type HookRow = Omit<Target, "previousSecretExpiresAt"> & {
  id: string;
  workspaceId: string;
  events: string[];
  previousSecretExpiresAt: string | null;
};
type BatchRow = { events: EventRow[]; hooks: HookRow[] };

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const IDS_PER_DRAW = 64;

/**
 * Delivery ids in newId("dlv")'s form (lib/ids.ts: 20 base-36 characters from 20 random bytes), drawn
 * 64 ids' worth of bytes at a time rather than one draw per id.
 */
function deliveryIds(): () => string {
  let bytes = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at === bytes.length) {
      bytes = randomBytes(20 * IDS_PER_DRAW);
      at = 0;
    }
    let out = "dlv_";
    for (const end = at + 20; at < end; at++) out += ALPHABET[bytes[at] % 36];
    return out;
  };
}

/**
 * The oldest events, locked (SKIP LOCKED) and taken out of the outbox by this transaction, with the
 * active webhooks of their workspaces: one statement, one row of two JSON arrays. The delete commits
 * with the deliveries made from them (or rolls back with them), so an event is in the outbox until its
 * deliveries exist, and no longer: the outbox holds only what is still to dispatch (it used to keep
 * every event, marked dispatched, for ever), and taking a row out writes no new row version and no
 * index entry where marking it wrote both. The delivery log keeps each delivered body for 30 days. The
 * locked ids go in as an array, so the delete finds them through the primary key (`in (…)` became a
 * hash join over a scan of the whole outbox).
 */
function lockBatch(limit: number): SQL {
  const w = webhooks;
  return sql`with b as (
      delete from ${ev}
      where ${ev.id} = any(array(
        select ${ev.id} from ${ev} order by ${ev.createdAt} limit ${limit} for update skip locked))
      returning ${ev.id} as "id", ${ev.workspaceId} as "workspaceId", ${ev.event} as "event", ${ev.data} as "data", ${ev.createdAt} as "createdAt")
    select coalesce((select json_agg(b order by b."createdAt", b."id") from b), '[]') as "events",
      coalesce((select json_agg(h) from (
        select ${w.id} as "id", ${w.workspaceId} as "workspaceId", ${w.events} as "events", ${w.url} as "url", ${w.timeoutMs} as "timeoutMs",
          ${w.retryAttempts} as "retryAttempts", ${w.secretEnc} as "secretEnc", ${w.previousSecretEnc} as "previousSecretEnc",
          ${w.previousSecretExpiresAt} as "previousSecretExpiresAt"
        from ${w} where ${w.active} and ${w.workspaceId} in (select "workspaceId" from b)) as h), '[]') as "hooks"`;
}

function hookOf(h: HookRow): Target & { id: string; workspaceId: string; events: string[] } {
  return { ...h, previousSecretExpiresAt: h.previousSecretExpiresAt === null ? null : new Date(h.previousSecretExpiresAt) };
}

/**
 * The deliveries in one statement: each row travels as a JSON array [id, workspace, webhook, event id,
 * event, body] in one parameter; the times are the same for all.
 */
function insertDeliveries(rows: string[][], now: Date, leasedUntil: Date | null): SQL {
  const r = sql.raw("r");
  return sql`
    insert into ${d} (${sql.identifier(d.id.name)}, ${sql.identifier(d.workspaceId.name)}, ${sql.identifier(d.webhookId.name)},
      ${sql.identifier(d.eventId.name)}, ${sql.identifier(d.event.name)}, ${sql.identifier(d.body.name)},
      ${sql.identifier(d.nextAttemptAt.name)}, ${sql.identifier(d.leasedUntil.name)}, ${sql.identifier(d.createdAt.name)})
    select ${r}->>0, ${r}->>1, ${r}->>2, ${r}->>3, ${r}->>4, ${r}->>5, ${now.toISOString()}::timestamptz,
      ${leasedUntil?.toISOString() ?? null}::timestamptz, ${now.toISOString()}::timestamptz
    from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as ${r}`;
}

/**
 * Outbox → deliveries: each new event goes to the active webhooks of its workspace that subscribe to it.
 * With `lease`, the deliveries are made leased to the caller, who sends them once this commits — no
 * claim has to write them again and read their bodies back; if the caller dies, the lease runs out and
 * they are claimed like any due delivery.
 */
export async function dispatchEvents(
  db: DbOrTx,
  clock: Clock,
  limit = DISPATCH_BATCH,
  opts: { lease?: boolean } = {},
): Promise<Dispatched> {
  // Two round trips: the batch (locked and taken out) and its webhooks, then the deliveries and COMMIT.
  const now = clock.now();
  return twoStepTransaction<BatchRow, Dispatched>(db, lockBatch(limit), (found) => {
    const batch = found[0]?.events ?? [];
    if (batch.length === 0) return { statements: [], result: { events: 0, deliveries: 0, leased: [] } };
    const hooks = (found[0]?.hooks ?? []).map(hookOf);
    const newId = deliveryIds();
    const leasedUntil = now.getTime() + LEASE_MS;
    const rows: string[][] = [];
    const leased: Claimed[] = [];
    for (const e of batch) {
      const body = envelope({ id: e.id, event: e.event, createdAt: new Date(e.createdAt), data: e.data });
      for (const w of hooks) {
        if (w.workspaceId !== e.workspaceId || !w.events.includes(e.event)) continue;
        const id = newId();
        rows.push([id, e.workspaceId, w.id, e.id, e.event, body]);
        if (opts.lease)
          leased.push({ id, eventId: e.id, event: e.event, body, attempts: 0, isTest: false, webhookId: w.id, target: w, leasedUntil });
      }
    }
    const statements = rows.length ? [insertDeliveries(rows, now, opts.lease ? new Date(leasedUntil) : null)] : [];
    return { statements, result: { events: batch.length, deliveries: rows.length, leased } };
  });
}
