import { and, desc, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { alerts } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { envelope, offsetOf, pageQuery } from "../paging";

/** GET /deliverability/alerts and POST …/<id>/ack. */

const flag = z.enum(["true", "false"]);

export const listAlertsQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  acknowledged: flag.optional().describe("false: only alerts nobody has acknowledged; true: only acknowledged ones"),
  open: flag.optional().describe("true: only alerts whose condition still holds; false: only resolved ones. Default: both"),
  kind: z.enum(alerts.kind.enumValues).optional(),
  mailboxId: z.string().max(100).optional(),
});

type AlertRow = typeof alerts.$inferSelect;

export function alertView(a: AlertRow) {
  return {
    id: a.id,
    kind: a.kind,
    severity: a.severity,
    subject: a.subject,
    mailboxId: a.mailboxId,
    domain: a.domain,
    message: a.message,
    details: a.details,
    createdAt: a.createdAt.toISOString(),
    acknowledgedAt: a.acknowledgedAt?.toISOString() ?? null,
    resolvedAt: a.resolvedAt?.toISOString() ?? null,
  };
}
export type AlertView = ReturnType<typeof alertView>;

function filters(ctx: Ctx, q: z.infer<typeof listAlertsQuery>): SQL | undefined {
  const is = (v: "true" | "false" | undefined, col: typeof alerts.acknowledgedAt) =>
    v === undefined ? undefined : v === "true" ? isNotNull(col) : isNull(col);
  return and(
    eq(alerts.workspaceId, ctx.workspaceId),
    is(q.acknowledged, alerts.acknowledgedAt),
    // open = not resolved
    q.open === undefined ? undefined : q.open === "true" ? isNull(alerts.resolvedAt) : isNotNull(alerts.resolvedAt),
    q.kind ? eq(alerts.kind, q.kind) : undefined,
    q.mailboxId ? eq(alerts.mailboxId, q.mailboxId) : undefined,
  );
}

/** `{ alerts, page, limit, total }`, newest first. */
export async function listAlerts(ctx: Ctx, q: z.infer<typeof listAlertsQuery>) {
  requireAccess(ctx, "read");
  const where = filters(ctx, q);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(alerts).where(where).orderBy(desc(alerts.seq)).limit(q.limit).offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(alerts).where(where),
  ]);
  return envelope("alerts", rows.map(alertView), n, q);
}

/** Marks the alert seen by a person; acknowledging again keeps the first time. The alert stays open until its condition ends. */
export async function acknowledgeAlert(ctx: Ctx, id: string) {
  requireAccess(ctx, "write");
  const [row] = await ctx.db
    .update(alerts)
    .set({ acknowledgedAt: sql`coalesce(${alerts.acknowledgedAt}, ${ctx.clock.now().toISOString()}::timestamptz)` })
    .where(and(eq(alerts.id, id), eq(alerts.workspaceId, ctx.workspaceId)))
    .returning();
  if (!row) throw new NotFoundError("Alert");
  return alertView(row);
}
