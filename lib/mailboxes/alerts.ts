import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { alerts, mailboxes } from "../../db/schema";
import { raiseAlert } from "../alerts/alerts";
import { READ_FAILING_AFTER_MS } from "./view";

/** The alerts about one mailbox's state (subject = the mailbox id). */
const MAILBOX_KINDS = ["BOUNCE_SPIKE", "LOGIN_FAILING", "READ_FAILING"] as const;

/**
 * Raises READ_FAILING for a mailbox whose replies have been unreadable for 30 minutes, from
 * the inbox sync's failure path; a mailbox the user paused reports nothing (as GET /mailboxes/issues).
 */
export async function raiseReadFailing(db: DbOrTx, mailboxId: string, now: Date): Promise<boolean> {
  const [m] = await db.select().from(mailboxes).where(eq(mailboxes.id, mailboxId));
  if (!m?.readFailingSince || now.getTime() - m.readFailingSince.getTime() < READ_FAILING_AFTER_MS) return false;
  if (!m.sendingEnabled && !m.autoPausedAt) return false;
  return raiseAlert(db, readFailingAlert(m), now);
}

/** The READ_FAILING alert of a mailbox (health check and inbox sync word it alike). */
export function readFailingAlert(m: {
  id: string;
  workspaceId: string;
  email: string;
  readError: string | null;
  readFailingSince: Date | null;
}) {
  return {
    workspaceId: m.workspaceId,
    kind: "READ_FAILING" as const,
    subject: m.id,
    mailboxId: m.id,
    message: `${m.email}: replies unreadable since ${m.readFailingSince?.toISOString()}${m.readError ? `: ${m.readError}` : ""}`,
    details: { readError: m.readError },
  };
}

/**
 * Closes the mailbox alerts whose condition is gone, however it went: BOUNCE_SPIKE once the mailbox is
 * no longer auto-paused (PATCH sendingEnabled: true lifts the pause), LOGIN_FAILING and READ_FAILING
 * once the failure is cleared (new credentials through PATCH, or a good login) or the user paused the
 * mailbox (a paused mailbox reports no problem). One statement over the open alerts only;
 * the mailbox health job runs it every pass. Returns how many it closed.
 */
export async function reconcileMailboxAlerts(db: DbOrTx, now: Date): Promise<number> {
  const userPaused = sql`(not ${mailboxes.sendingEnabled} and ${mailboxes.autoPausedAt} is null)`;
  const rows = await db
    .update(alerts)
    .set({ resolvedAt: now })
    .from(mailboxes)
    .where(
      and(
        isNull(alerts.resolvedAt),
        inArray(alerts.kind, [...MAILBOX_KINDS]),
        eq(mailboxes.id, alerts.mailboxId),
        sql`case ${alerts.kind}
          when 'BOUNCE_SPIKE' then ${mailboxes.autoPausedAt} is null
          when 'LOGIN_FAILING' then ${mailboxes.loginFailingSince} is null or ${userPaused}
          else ${mailboxes.readFailingSince} is null or ${userPaused} end`,
      ),
    )
    .returning({ id: alerts.id });
  return rows.length;
}
