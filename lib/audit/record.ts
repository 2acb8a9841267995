import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import type { Ctx } from "../ctx";
import { newId } from "../ids";

/** Every action the audit log records (dotted names; docs/teams.md lists what each means). */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.2fa_enabled",
  "auth.2fa_disabled",
  "auth.recovery_code_used",
  "auth.password_changed",
  "auth.password_reset",
  "auth.email_changed",
  "auth.sessions_revoked",
  "member.invited",
  "member.invitation_revoked",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "api_key.created",
  "api_key.revoked",
  "mailbox.connected",
  "mailbox.credentials_changed",
  "mailbox.deleted",
  "webhook.created",
  "webhook.updated",
  "webhook.secret_rotated",
  "webhook.deleted",
  "campaign.deleted",
  "leads.bulk_deleted",
  "report.leads_csv",
  "settings.changed",
  "workspace.created",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditTarget {
  type: string;
  id?: string | null;
  label?: string | null;
}

/** Field names whose values are never written to the log, at any depth (passwords, keys, tokens, codes). */
const SECRET_FIELD = /pass(word)?|secret|token|api_?key|^key$|code|credential|private|refresh|access_?token|authorization|cookie/i;

/** The detail with every secret-looking field dropped, so that no row of the log can hold a secret. */
export function scrubDetail(detail: unknown): unknown {
  if (Array.isArray(detail)) return detail.map(scrubDetail);
  if (detail && typeof detail === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(detail)) {
      if (SECRET_FIELD.test(k)) continue;
      out[k] = scrubDetail(v);
    }
    return out;
  }
  return detail;
}

/**
 * Records one action of the request's actor (user, API key or the system) in the request's workspace.
 * In the caller's transaction when `ctx.db` is one, so a change and its record commit together. The
 * actor's label (email, or the key's name and prefix) is read in the same statement.
 */
export async function audit(ctx: Ctx, action: AuditAction, target?: AuditTarget, detail: Record<string, unknown> = {}): Promise<void> {
  const a = ctx.actor;
  const actorType = a.type === "session" ? "user" : a.type === "apiKey" ? "api_key" : "system";
  const actorId = a.type === "session" ? a.userId : a.type === "apiKey" ? a.keyId : null;
  const label =
    a.type === "session"
      ? sql`(select email from users where id = ${a.userId})`
      : a.type === "apiKey"
        ? sql`(select name || ' (' || prefix || '…)' from api_keys where id = ${a.keyId})`
        : sql`'system'`;
  await ctx.db.execute(sql`
    insert into audit_log (id, workspace_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, target_label, ip, detail)
    values (${newId("aud")}, ${ctx.workspaceId}, ${ctx.clock.now().toISOString()}::timestamptz, ${actorType}, ${actorId}, ${label},
      ${action}, ${target?.type ?? null}, ${target?.id ?? null}, ${target?.label ?? null}, ${ctx.ip ?? null},
      ${JSON.stringify(scrubDetail(detail))}::jsonb)`);
}

/**
 * Records an action about one user's own account (sign-ins, two-factor, password): it has no
 * workspace of its own and shows in the log of every workspace the user is a member of. `userId` null
 * for a failed sign-in with an email no account has (kept, shown nowhere but the database).
 */
export async function auditAccount(
  db: DbOrTx,
  input: { userId: string | null; action: AuditAction; at: Date; ip?: string | null; label?: string; detail?: Record<string, unknown> },
): Promise<void> {
  const label = input.userId ? sql`(select email from users where id = ${input.userId})` : sql`${input.label ?? null}`;
  await db.execute(sql`
    insert into audit_log (id, workspace_id, subject_user_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, target_label, ip, detail)
    values (${newId("aud")}, null, ${input.userId}, ${input.at.toISOString()}::timestamptz, 'user', ${input.userId}, ${label},
      ${input.action}, 'user', ${input.userId}, ${label}, ${input.ip ?? null}, ${JSON.stringify(scrubDetail(input.detail ?? {}))}::jsonb)`);
}
