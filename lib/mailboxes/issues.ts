import { and, asc, eq, isNotNull, or } from "drizzle-orm";
import { mailboxOauthAppGrants, mailboxes } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { fixFor } from "./credentials";
import { READ_FAILING_AFTER_MS } from "./view";

type Kind = "LOGIN_FAILING" | "READ_FAILING" | "AUTO_PAUSED";

/**
 * GET /mailboxes/issues: `{ mailboxes, issues }`. A mailbox the user paused reports
 * nothing; READ_FAILING appears once replies have been unreadable for 30 minutes.
 */
export async function mailboxIssues(ctx: Ctx) {
  requireAccess(ctx, "read");
  // A bulk-connected OAuth mailbox's fix names its app grant (service account, tenant consent): joined, not read apart.
  const found = await ctx.db
    .select({ m: mailboxes, appGrant: mailboxOauthAppGrants.kind })
    .from(mailboxes)
    .leftJoin(mailboxOauthAppGrants, eq(mailboxOauthAppGrants.mailboxId, mailboxes.id))
    .where(
      and(
        eq(mailboxes.workspaceId, ctx.workspaceId),
        or(isNotNull(mailboxes.loginFailingSince), isNotNull(mailboxes.readFailingSince), isNotNull(mailboxes.autoPausedAt)),
      ),
    )
    .orderBy(asc(mailboxes.seq));
  const now = ctx.clock.now().getTime();
  const issues: { mailboxId: string; email: string; kind: Kind; since: string; detail: string | null; fix: string }[] = [];
  for (const { m, appGrant } of found) {
    const userPaused = !m.sendingEnabled && !m.autoPausedAt;
    if (userPaused) continue;
    const add = (kind: Kind, since: Date, detail: string | null) =>
      issues.push({
        mailboxId: m.id,
        email: m.email,
        kind,
        since: since.toISOString(),
        detail,
        fix: fixFor(kind, m.provider, m.email, m.authType, appGrant ?? undefined),
      });
    if (m.loginFailingSince) add("LOGIN_FAILING", m.loginFailingSince, m.loginError);
    if (m.readFailingSince && now - m.readFailingSince.getTime() >= READ_FAILING_AFTER_MS)
      add("READ_FAILING", m.readFailingSince, m.readError);
    if (m.autoPausedAt) add("AUTO_PAUSED", m.autoPausedAt, m.autoPauseReason);
  }
  return { mailboxes: new Set(issues.map((i) => i.mailboxId)).size, issues };
}
