import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { mailboxTags, mailboxes, tags } from "../../db/schema";
import { encryptSecret } from "../crypto/secretbox";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ensureDomain } from "../domains/ensure-domain";
import { normalizeEmail } from "../emails";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { auditConnect, type ConnectedVia } from "./audit";
import { emitReconnected } from "./events";
import { newId } from "../ids";
import {
  PROVIDERS,
  espClassOf,
  providerFromAddressDomain,
  providerFromMx,
  providerOverride,
  type ProviderId,
  type ServerSettings,
} from "../mail/providers";
import { resolveMx } from "../net/dns";
import type { connectByEmailBody } from "./schemas";
import type { z } from "zod";
import { requireSmtpLogin } from "./verify-login";
import { mailboxViews, type MailboxRow } from "./view";

/** Which hosted provider serves an address: MAIL_PROVIDERS_FILE, the consumer domains, then MX records. */
export async function resolveProvider(
  domain: string,
): Promise<{ provider: ProviderId; settings: ServerSettings; espClass: string } | undefined> {
  const override = providerOverride(domain);
  const known = providerFromAddressDomain(domain);
  if (override) {
    const mx = known ?? (await mxProvider(domain));
    return { provider: mx ?? "CUSTOM", settings: override, espClass: espClassOf(mx) === "UNKNOWN" ? "OTHER" : espClassOf(mx) };
  }
  const id = known ?? (await mxProvider(domain));
  if (!id || id === "CUSTOM") return undefined;
  return { provider: id, settings: PROVIDERS[id], espClass: espClassOf(id) };
}

export async function mxProvider(domain: string): Promise<ProviderId | undefined> {
  const mx = await resolveMx(domain);
  return mx.ok ? providerFromMx(mx.records.map((r) => r.exchange)) : undefined;
}

/** Tag ids must belong to the workspace; they are only ever added. */
export async function checkTags(db: DbOrTx, workspaceId: string, tagIds: string[] | undefined): Promise<string[]> {
  const ids = [...new Set(tagIds ?? [])];
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.workspaceId, workspaceId), inArray(tags.id, ids)));
  if (found.length !== ids.length) throw new NotFoundError("Tag");
  return ids;
}

export async function addMailboxTags(db: DbOrTx, workspaceId: string, mailboxId: string, tagIds: string[]): Promise<void> {
  if (tagIds.length === 0) return;
  await db
    .insert(mailboxTags)
    .values(tagIds.map((tagId) => ({ workspaceId, mailboxId, tagId })))
    .onConflictDoNothing();
}

type Values = Omit<typeof mailboxes.$inferInsert, "id" | "workspaceId" | "domainId">;

/**
 * Inserts the mailbox or replaces the login of the existing one with the same address (warmup state and
 * history kept). A mailbox whose login had been failing is reconnected: `mailbox.reconnected` fires.
 * The audit log gets `mailbox.connected` or, for a changed login, `mailbox.credentials_changed` (`via` says how).
 */
export async function upsertMailbox(
  ctx: Ctx,
  email: string,
  values: Values,
  keepIfUnsent: (keyof Values)[],
  via: ConnectedVia,
): Promise<{ row: MailboxRow; created: boolean }> {
  return withTransaction(ctx, async (tx, txCtx) => {
    // One writer per address at a time, so that repeating the call (even concurrently) is safe.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mbx:${ctx.workspaceId}:${email.toLowerCase()}`}))`);
    const domainId = await ensureDomain(tx, ctx.workspaceId, email.slice(email.lastIndexOf("@") + 1));
    const [before] = await tx
      .select()
      .from(mailboxes)
      .where(and(eq(mailboxes.workspaceId, ctx.workspaceId), sql`lower(${mailboxes.email}) = lower(${email})`));
    const now = ctx.clock.now();
    let row: MailboxRow;
    if (before) {
      const update: Partial<Values> = { ...values, loginFailingSince: null, loginError: null, updatedAt: now };
      delete update.email; // the address keeps the spelling it was first connected with
      for (const k of keepIfUnsent) if (values[k] === undefined) delete update[k];
      [row] = await tx.update(mailboxes).set(update).where(eq(mailboxes.id, before.id)).returning();
    } else {
      [row] = await tx
        .insert(mailboxes)
        .values({ id: newId("mbx"), workspaceId: ctx.workspaceId, domainId, ...values, email, createdAt: now, updatedAt: now })
        .returning();
    }
    if (before?.loginFailingSince) {
      await emitReconnected(tx, ctx.workspaceId, row, now);
    }
    await auditConnect(txCtx, via, row, before);
    return { row, created: !before };
  });
}

/**
 * PUT /mailboxes/by-email/<email>: connects a hosted-webmail mailbox with an app password. The
 * password is checked by a real SMTP login first; nothing is saved when it is refused.
 */
export async function connectByEmail(ctx: Ctx, rawEmail: string, input: z.infer<typeof connectByEmailBody>) {
  requireAccess(ctx, "write");
  const n = normalizeEmail(rawEmail);
  if (!n.ok) throw ValidationError.field("email", n.reason);
  const tagIds = await checkTags(ctx.db, ctx.workspaceId, input.tagIds);
  const found = await resolveProvider(n.domain);
  if (!found) {
    throw new BadRequestError(
      `Could not tell which hosted-webmail provider serves ${n.domain} (no known MX records). ` +
        "Import it with its SMTP and IMAP settings through POST /mailboxes/bulk-import instead.",
    );
  }
  const password = input.appPassword.replace(/\s+/g, "");
  const s = found.settings;
  await requireSmtpLogin({ host: s.smtpHost, port: s.smtpPort, security: s.smtpSecurity, username: n.email, password }, "appPassword");
  const sealed = encryptSecret(password);
  const { row, created } = await upsertMailbox(
    ctx,
    n.email,
    {
      email: n.email,
      provider: found.provider,
      espClass: found.espClass,
      authType: "PASSWORD",
      ...s,
      smtpUsername: n.email,
      smtpPasswordEnc: sealed,
      imapUsername: n.email,
      imapPasswordEnc: sealed,
      senderName: input.senderName === undefined ? undefined : input.senderName || null,
      warmupGroup: input.warmupGroup === undefined ? undefined : input.warmupGroup || null,
    },
    ["senderName", "warmupGroup"],
    "app_password",
  );
  await addMailboxTags(ctx.db, ctx.workspaceId, row.id, tagIds);
  const [view] = await mailboxViews(ctx.db, [row], ctx.clock.now());
  return { mailbox: { ...view, created }, created };
}
