import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { events as ev, webhookDeliveries as d, webhooks } from "../../db/schema";
import type { Clock } from "../clock";
import { type Claimed, LEASE_MS } from "./claim";
import type { Target } from "./send";

/** Events fanned out per transaction. */
export const DISPATCH_BATCH = 500;

/** The 6.1 envelope, serialised once: every retry and resend sends these exact bytes. */
export function envelope(e: { id: string; event: string; createdAt: Date; data: Record<string, unknown> }): string {
  return JSON.stringify({ id: e.id, event: e.event, createdAt: e.createdAt.toISOString(), data: e.data });
}

export interface Dispatched {
  events: number;
  deliveries: number;
  /** With `lease`: the new deliveries, leased to the caller, with what sending them needs. */
  leased: Claimed[];
}

type EventRow = { id: string; workspaceId: string; event: string; data: Record<string, unknown>; createdAt: Date | string };
type Hook = Target & { id: string; workspaceId: string; events: string[] };

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

/** The oldest undispatched events, locked (SKIP LOCKED) for this transaction. */
function lockBatch(tx: DbOrTx, limit: number): Promise<EventRow[]> {
  return selectRows<EventRow>(
    tx,
    sql`select ${ev.id} as "id", ${ev.workspaceId} as "workspaceId", ${ev.event} as "event", ${ev.data} as "data", ${ev.createdAt} as "createdAt"
    from ${ev} where ${ev.dispatchedAt} is null order by ${ev.createdAt} limit ${limit} for update skip locked`,
  );
}

function activeHooks(tx: DbOrTx, workspaceIds: string[]): Promise<Hook[]> {
  return tx
    .select({
      id: webhooks.id,
      workspaceId: webhooks.workspaceId,
      events: webhooks.events,
      url: webhooks.url,
      timeoutMs: webhooks.timeoutMs,
      retryAttempts: webhooks.retryAttempts,
      secretEnc: webhooks.secretEnc,
      previousSecretEnc: webhooks.previousSecretEnc,
      previousSecretExpiresAt: webhooks.previousSecretExpiresAt,
    })
    .from(webhooks)
    .where(and(sql`${webhooks.workspaceId} = ${anyOf(workspaceIds)}`, eq(webhooks.active, true)));
}

/**
 * The deliveries in one statement: each row travels as a JSON array [id, workspace, webhook, event id,
 * event, body] in one parameter; the times are the same for all.
 */
async function insertDeliveries(tx: DbOrTx, rows: string[][], now: Date, leasedUntil: Date | null): Promise<void> {
  const r = sql.raw("r");
  await tx.execute(sql`
    insert into ${d} (${sql.identifier(d.id.name)}, ${sql.identifier(d.workspaceId.name)}, ${sql.identifier(d.webhookId.name)},
      ${sql.identifier(d.eventId.name)}, ${sql.identifier(d.event.name)}, ${sql.identifier(d.body.name)},
      ${sql.identifier(d.nextAttemptAt.name)}, ${sql.identifier(d.leasedUntil.name)}, ${sql.identifier(d.createdAt.name)})
    select ${r}->>0, ${r}->>1, ${r}->>2, ${r}->>3, ${r}->>4, ${r}->>5, ${now.toISOString()}::timestamptz,
      ${leasedUntil?.toISOString() ?? null}::timestamptz, ${now.toISOString()}::timestamptz
    from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as ${r}`);
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
  return db.transaction(async (tx) => {
    const batch = await lockBatch(tx, limit);
    if (batch.length === 0) return { events: 0, deliveries: 0, leased: [] };
    const hooks = await activeHooks(tx, [...new Set(batch.map((e) => e.workspaceId))]);
    const now = clock.now();
    const newId = deliveryIds();
    const rows: string[][] = [];
    const leased: Claimed[] = [];
    for (const e of batch) {
      const body = envelope({ id: e.id, event: e.event, createdAt: new Date(e.createdAt), data: e.data });
      for (const w of hooks) {
        if (w.workspaceId !== e.workspaceId || !w.events.includes(e.event)) continue;
        const id = newId();
        rows.push([id, e.workspaceId, w.id, e.id, e.event, body]);
        if (opts.lease) leased.push({ id, eventId: e.id, event: e.event, body, attempts: 0, isTest: false, webhookId: w.id, target: w });
      }
    }
    if (rows.length) await insertDeliveries(tx, rows, now, opts.lease ? new Date(now.getTime() + LEASE_MS) : null);
    await tx
      .update(ev)
      .set({ dispatchedAt: now })
      .where(sql`${ev.id} = ${anyOf(batch.map((e) => e.id))}`);
    return { events: batch.length, deliveries: rows.length, leased };
  });
}
