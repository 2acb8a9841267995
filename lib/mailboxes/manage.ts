import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { mailboxTags, mailboxes } from "../../db/schema";
import { offsetOf } from "../paging";
import { encryptSecret } from "../crypto/secretbox";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { audit } from "../audit/record";
import { changedLoginFields, mailboxTarget } from "./audit";
import { emitReconnected } from "./events";
import { attachTag } from "../tags/tags";
import { loginOf, type Protocol } from "./credentials";
import { mailboxHistory } from "./history";
import { CREDENTIAL_FIELDS, type listMailboxesQuery, type PatchMailboxInput } from "./schemas";
import { requireImapLogin, requireSmtpLogin } from "./verify-login";
import { findMailbox, type MailboxRow, mailboxViews } from "./view";

type MailboxInsert = typeof mailboxes.$inferInsert;

export async function listMailboxes(ctx: Ctx, q: z.infer<typeof listMailboxesQuery>) {
  requireAccess(ctx, "read");
  const conds = [eq(mailboxes.workspaceId, ctx.workspaceId)];
  if (q.email) conds.push(sql`lower(${mailboxes.email}) = lower(${q.email.trim()})`);
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(mailboxes).where(where).orderBy(asc(mailboxes.seq)).limit(q.limit).offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(mailboxes).where(where),
  ]);
  return { rows: await mailboxViews(ctx.db, rows, ctx.clock.now()), total: n };
}

export async function getMailbox(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  const row = await findMailbox(ctx.db, ctx.workspaceId, id);
  if (!row) throw new NotFoundError("Mailbox");
  return (await mailboxViews(ctx.db, [row], ctx.clock.now()))[0];
}

/**
 * PATCH /mailboxes/<id>. New SMTP or IMAP credentials are checked by a real login before
 * they are saved. OAuth-connected mailboxes take no credentials. `sendingEnabled: true` also lifts an
 * automatic (bounce) pause.
 */
export async function patchMailbox(ctx: Ctx, id: string, input: PatchMailboxInput) {
  requireAccess(ctx, "write");
  const row = await findMailbox(ctx.db, ctx.workspaceId, id);
  if (!row) throw new NotFoundError("Mailbox");
  const sentCreds = CREDENTIAL_FIELDS.filter((f) => input[f] !== undefined);
  if (row.authType === "OAUTH" && sentCreds.length > 0) {
    throw new ValidationError("This mailbox is connected with OAuth; SMTP/IMAP credentials cannot be set on it", {
      fieldErrors: Object.fromEntries(sentCreds.map((f) => [f, ["not allowed on an OAuth-connected mailbox"]])),
      formErrors: [],
    });
  }
  const now = ctx.clock.now();
  const set: Partial<MailboxInsert> = { updatedAt: now };
  for (const f of ["senderName", "signatureHtml", "warmupGroup"] as const) if (input[f] !== undefined) set[f] = input[f] || null;
  for (const f of ["dailySendCap", "sendingEnabled", "assumedWarm", "isSeed"] as const)
    if (input[f] !== undefined) (set as Record<string, unknown>)[f] = input[f];
  if (input.sendingEnabled === true) {
    set.autoPausedAt = null;
    set.autoPauseReason = null;
  }

  const smtpChanged = sentCreds.some((f) => f.startsWith("smtp"));
  const imapChanged = sentCreds.some((f) => f.startsWith("imap"));
  if (smtpChanged) Object.assign(set, await checkedLogin("smtp", row, input), { loginFailingSince: null, loginError: null });
  if (imapChanged) Object.assign(set, await checkedLogin("imap", row, input), { readFailingSince: null, readError: null });
  return withTransaction(ctx, async (tx, txCtx) => {
    const [updated] = await tx
      .update(mailboxes)
      .set(set)
      .where(and(eq(mailboxes.id, id), eq(mailboxes.workspaceId, ctx.workspaceId)))
      .returning();
    if (!updated) throw new NotFoundError("Mailbox");
    if (smtpChanged && row.loginFailingSince) {
      await emitReconnected(tx, ctx.workspaceId, row, now);
    }
    const changed = smtpChanged || imapChanged ? changedLoginFields(row, updated) : [];
    if (changed.length) await audit(txCtx, "mailbox.credentials_changed", mailboxTarget(updated), { via: "patch", changed });
    return (await mailboxViews(tx, [updated], now))[0];
  });
}

/**
 * A changed SMTP or IMAP login (each field sent, else the saved one), checked by a real login before it
 * is saved; the columns to set.
 */
async function checkedLogin(p: Protocol, row: MailboxRow, input: PatchMailboxInput): Promise<Partial<MailboxInsert>> {
  const cur = loginOf(row, p);
  const cfg = {
    host: input[`${p}Host`] ?? cur.host,
    port: input[`${p}Port`] ?? cur.port,
    security: input[`${p}Security`] ?? cur.security,
    username: input[`${p}Username`] ?? cur.username,
    password: input[`${p}Password`] ?? cur.password,
  };
  const field = input[`${p}Password`] ? `${p}Password` : `${p}Username`;
  await (p === "smtp" ? requireSmtpLogin : requireImapLogin)(cfg, field);
  const enc = encryptSecret(cfg.password);
  return p === "smtp"
    ? { smtpHost: cfg.host, smtpPort: cfg.port, smtpSecurity: cfg.security, smtpUsername: cfg.username, smtpPasswordEnc: enc }
    : { imapHost: cfg.host, imapPort: cfg.port, imapSecurity: cfg.security, imapUsername: cfg.username, imapPasswordEnc: enc };
}

/** DELETE /mailboxes/<id>: refused (409) once the mailbox has real send or reply history. */
export async function deleteMailbox(ctx: Ctx, id: string) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx, txCtx) => {
    const row = await findMailbox(tx, ctx.workspaceId, id);
    if (!row) throw new NotFoundError("Mailbox");
    const history = await mailboxHistory(tx, id);
    if (history.sends + history.replies > 0) {
      throw new ConflictError(
        `${row.email} has sent ${history.sends} email(s) and received ${history.replies} repl(ies); it cannot be deleted. ` +
          "Turn sending off instead (PATCH sendingEnabled: false).",
        history,
      );
    }
    await tx.delete(mailboxes).where(eq(mailboxes.id, id));
    await audit(txCtx, "mailbox.deleted", mailboxTarget(row), {});
    return { deleted: true, id };
  });
}

export async function bulkDailyCap(ctx: Ctx, mailboxIds: string[], dailySendCap: number) {
  requireAccess(ctx, "write");
  const ids = [...new Set(mailboxIds)];
  const rows = await ctx.db
    .update(mailboxes)
    .set({ dailySendCap, updatedAt: ctx.clock.now() })
    .where(and(eq(mailboxes.workspaceId, ctx.workspaceId), inArray(mailboxes.id, ids)))
    .returning({ id: mailboxes.id });
  const found = new Set(rows.map((r) => r.id));
  return { updated: rows.length, notFound: ids.filter((i) => !found.has(i)) };
}

export async function attachTagToMailbox(ctx: Ctx, mailboxId: string, ref: { tagId?: string; name?: string }) {
  const requireMailbox = async (tx: DbOrTx) => {
    if (!(await findMailbox(tx, ctx.workspaceId, mailboxId))) throw new NotFoundError("Mailbox");
  };
  const { tag, attached } = await attachTag(ctx, ref, requireMailbox, (tx, tagId) =>
    tx.insert(mailboxTags).values({ workspaceId: ctx.workspaceId, mailboxId, tagId }).onConflictDoNothing().returning(),
  );
  return { mailboxId, tag, attached };
}

export async function detachTagFromMailbox(ctx: Ctx, mailboxId: string, tagId: string) {
  requireAccess(ctx, "write");
  if (!(await findMailbox(ctx.db, ctx.workspaceId, mailboxId))) throw new NotFoundError("Mailbox");
  const rows = await ctx.db
    .delete(mailboxTags)
    .where(and(eq(mailboxTags.mailboxId, mailboxId), eq(mailboxTags.tagId, tagId), eq(mailboxTags.workspaceId, ctx.workspaceId)))
    .returning();
  if (rows.length === 0) throw new NotFoundError("Tag on this mailbox");
  return { mailboxId, tagId, removed: true };
}
