import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { alerts } from "../../db/schema";
import { newId } from "../ids";

/**
 * Deliverability alerts (see docs/deliverability.md): one open alert per kind and subject, raised and
 * resolved by the job that sees the condition (bounce policy, health check, inbox sync, blacklist
 * and domain checks, placement tests), acknowledged by a person. Raising an open alert again keeps
 * the row (and its acknowledgement) and refreshes its message; resolving closes it, so the next
 * occurrence is a new alert. The rules of the alerts about a mailbox's own state (READ_FAILING, closing
 * the mailbox alerts whose condition is gone) are in lib/mailboxes/alerts.ts.
 */

export type AlertKind = (typeof alerts.$inferSelect)["kind"];
export type AlertSeverity = "critical" | "warning" | "info";

const SEVERITY: Record<AlertKind, AlertSeverity> = {
  BOUNCE_SPIKE: "critical",
  LOGIN_FAILING: "critical",
  READ_FAILING: "warning",
  BLACKLISTED: "critical",
  PLACEMENT_DROP: "warning",
  DNS_FAILING: "warning",
};

export interface AlertInput {
  workspaceId: string;
  kind: AlertKind;
  /** What the alert is about: a mailbox id, a domain or an IP address. */
  subject: string;
  mailboxId?: string | null;
  domain?: string | null;
  message: string;
  details?: Record<string, unknown>;
}

/** Opens the alert, or refreshes the open one of the same kind and subject. Returns whether it is new. */
export async function raiseAlert(db: DbOrTx, a: AlertInput, now: Date): Promise<boolean> {
  const rows = await db
    .insert(alerts)
    .values({
      id: newId("alr"),
      workspaceId: a.workspaceId,
      kind: a.kind,
      severity: SEVERITY[a.kind],
      subject: a.subject,
      mailboxId: a.mailboxId ?? null,
      domain: a.domain ?? null,
      message: a.message,
      details: a.details ?? {},
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [alerts.workspaceId, alerts.kind, alerts.subject],
      targetWhere: sql`resolved_at IS NULL`,
      set: { message: a.message, details: a.details ?? {} },
    })
    .returning({ createdAt: alerts.createdAt });
  return rows[0]?.createdAt.getTime() === now.getTime();
}

/** Closes the open alert of this kind and subject, if any. */
export async function resolveAlert(db: DbOrTx, workspaceId: string, kind: AlertKind, subject: string, now: Date): Promise<void> {
  await db
    .update(alerts)
    .set({ resolvedAt: now })
    .where(and(eq(alerts.workspaceId, workspaceId), eq(alerts.kind, kind), eq(alerts.subject, subject), isNull(alerts.resolvedAt)));
}
