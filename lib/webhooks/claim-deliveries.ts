import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { webhookDeliveries as d, webhooks as w } from "../../db/schema";
import type { Target } from "./send";

/** How long a claimed delivery stays with the worker that claimed it; after a crash it is due again. */
export const LEASE_MS = 60_000;

/** A claimed delivery with what sending and recording it need. */
export interface Claimed {
  id: string;
  eventId: string;
  event: string;
  body: string;
  attempts: number;
  isTest: boolean;
  webhookId: string;
  target: Target;
  /** When the lease runs out (ms since the epoch): after it, the delivery may be claimed again. */
  leasedUntil: number;
}

const d2 = alias(d, "d2");
const w2 = alias(w, "w2");

type ClaimedRow = Omit<Claimed, "target" | "leasedUntil"> &
  Omit<Target, "previousSecretExpiresAt"> & { previousSecretExpiresAt: string | null };

/**
 * Claims up to `limit` due deliveries of active webhooks with a lease (SKIP LOCKED), oldest due first,
 * with their webhook's URL, limits and secrets.
 */
export async function claimDue(db: DbOrTx, now: Date, limit: number): Promise<Claimed[]> {
  const at = now.toISOString();
  const leasedUntil = now.getTime() + LEASE_MS;
  const until = new Date(leasedUntil).toISOString();
  const rows = await selectRows<ClaimedRow>(
    db,
    sql`
    update ${d} set ${sql.identifier(d.leasedUntil.name)} = ${until}::timestamptz
    from ${w}
    where ${d.webhookId} = ${w.id} and ${d.id} in (
      select ${d2.id} from ${d} as d2 join ${w} as w2 on ${w2.id} = ${d2.webhookId}
      where ${d2.status} = 'PENDING' and ${w2.active} and ${d2.nextAttemptAt} <= ${at}::timestamptz
        and (${d2.leasedUntil} is null or ${d2.leasedUntil} < ${at}::timestamptz)
      order by ${d2.nextAttemptAt} limit ${limit}
      for update of ${sql.identifier("d2")} skip locked)
    returning ${d.id} as "id", ${d.eventId} as "eventId", ${d.event} as "event", ${d.body} as "body",
      ${d.attempts} as "attempts", ${d.isTest} as "isTest", ${d.webhookId} as "webhookId",
      ${w.url} as "url", ${w.timeoutMs} as "timeoutMs", ${w.retryAttempts} as "retryAttempts",
      ${w.secretEnc} as "secretEnc", ${w.previousSecretEnc} as "previousSecretEnc",
      ${w.previousSecretExpiresAt} as "previousSecretExpiresAt"`,
  );
  return rows.map((r) => ({
    id: r.id,
    eventId: r.eventId,
    event: r.event,
    body: r.body,
    attempts: r.attempts,
    isTest: r.isTest,
    webhookId: r.webhookId,
    leasedUntil,
    target: {
      url: r.url,
      timeoutMs: r.timeoutMs,
      retryAttempts: r.retryAttempts,
      secretEnc: r.secretEnc,
      previousSecretEnc: r.previousSecretEnc,
      previousSecretExpiresAt: r.previousSecretExpiresAt ? new Date(r.previousSecretExpiresAt) : null,
    },
  }));
}
