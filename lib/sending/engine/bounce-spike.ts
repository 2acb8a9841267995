import { eq, sql } from "drizzle-orm";
import { selectRows } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { emails, mailboxes } from "../../../db/schema";
import { raiseAlert } from "../../alerts/alerts";
import { emitEvent } from "../../events/emit";
import type { Mailbox } from "./types";

export const BOUNCE_RATE_THRESHOLD = 0.018;
const BOUNCE_WINDOW_MS = 30 * 24 * 3600_000;

/**
 * Bounce protection: above 1.8% bounces with at least 2 bounces over the last 30 days of
 * campaign email, the mailbox pauses itself and `mailbox.bounce_spike` fires once per pause.
 */
export async function checkBounceSpike(tx: DbOrTx, m: Mailbox, now: Date): Promise<void> {
  const since = new Date(now.getTime() - BOUNCE_WINDOW_MS);
  const [r] = await selectRows<{ sent: number; bounced: number }>(
    tx,
    sql`select count(*) filter (where ${emails.status} in ('SENT', 'BOUNCED'))::int as sent,
          count(*) filter (where ${emails.status} = 'BOUNCED')::int as bounced
        from ${emails}
        where ${emails.mailboxId} = ${m.id} and ${emails.campaignId} is not null and ${emails.createdAt} >= ${since.toISOString()}::timestamptz`,
  );
  const rate = r.sent > 0 ? r.bounced / r.sent : 0;
  if (r.bounced < 2 || rate <= BOUNCE_RATE_THRESHOLD) return;
  const [cur] = await tx.select().from(mailboxes).where(eq(mailboxes.id, m.id)).for("update");
  if (!cur || cur.autoPausedAt) return;
  const reason = `Bounce rate ${(rate * 100).toFixed(1)}% (${r.bounced} of ${r.sent} in 30 days) is above 1.8%`;
  await tx.update(mailboxes).set({ autoPausedAt: now, autoPauseReason: reason }).where(eq(mailboxes.id, m.id));
  // Resolved when the pause is lifted (the mailbox health job's reconcile pass, lib/deliverability/alerts).
  await raiseAlert(
    tx,
    { workspaceId: m.workspaceId, kind: "BOUNCE_SPIKE", subject: m.id, mailboxId: m.id, message: `${m.email} paused: ${reason}` },
    now,
  );
  await emitEvent(
    tx,
    m.workspaceId,
    "mailbox.bounce_spike",
    {
      mailboxId: m.id,
      mailboxEmail: m.email,
      bounceRate: Math.round(rate * 10_000) / 10_000,
      threshold: BOUNCE_RATE_THRESHOLD,
      sentCount: r.sent,
      bouncedCount: r.bounced,
      windowStart: since.toISOString(),
      windowEnd: now.toISOString(),
      action: "paused",
    },
    now,
  );
}
