import { encryptSecret } from "../crypto/secretbox";
import { requireAccess, type Ctx } from "../ctx";
import { normalizeEmail } from "../emails";
import { AppError } from "../errors";
import { espClassOf, providerFromMx, type ProviderId } from "../mail/providers";
import { addMailboxTags, checkTags, mxProvider, upsertMailbox } from "./connect";
import type { ImportItem } from "./schemas";
import { requireImapLogin, requireSmtpLogin } from "./verify-login";
import { mailboxViews, type MailboxRow } from "./view";

export interface ImportFailure {
  /** Position in the request. */
  index: number;
  email: string;
  error: string;
  smtpResponseCode?: number;
}

/** Runs `fn` over items with at most `limit` at once (logins are slow, mailboxes many). */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

/**
 * POST /mailboxes/bulk-import: mailboxes with their own SMTP/IMAP credentials. Each is verified
 * (SMTP and IMAP logins) unless `verify: false`, and saved or reported on its own.
 * Usernames default to the address; the IMAP password to the SMTP one.
 */
export async function bulkImportMailboxes(ctx: Ctx, items: ImportItem[], verify: boolean) {
  requireAccess(ctx, "write");
  const failed: ImportFailure[] = [];
  const saved: { index: number; row: MailboxRow; created: boolean }[] = [];
  const providerCache = new Map<string, Promise<ProviderId | undefined>>();
  await eachLimited(items, 8, async (item, index) => {
    const n = normalizeEmail(item.email);
    if (!n.ok) {
      failed.push({ index, email: String(item.email), error: n.reason });
      return;
    }
    try {
      const tagIds = await checkTags(ctx.db, ctx.workspaceId, item.tagIds);
      const smtp = {
        host: item.smtpHost,
        port: item.smtpPort,
        security: item.smtpSecurity ?? (item.smtpPort === 465 ? "SSL" : "STARTTLS"),
        username: item.smtpUsername || n.email,
        password: item.smtpPassword,
      } as const;
      const imap = {
        host: item.imapHost,
        port: item.imapPort,
        security: item.imapSecurity ?? (item.imapPort === 143 ? "STARTTLS" : "SSL"),
        username: item.imapUsername || n.email,
        password: item.imapPassword || item.smtpPassword,
      } as const;
      if (verify) {
        await requireSmtpLogin(smtp, "smtpPassword");
        await requireImapLogin(imap, "imapPassword");
      }
      if (!providerCache.has(n.domain)) providerCache.set(n.domain, mxProvider(n.domain));
      const provider = providerFromMx([smtp.host]) ?? (await providerCache.get(n.domain));
      const { row, created } = await upsertMailbox(
        ctx,
        n.email,
        {
          email: n.email,
          provider: "CUSTOM",
          espClass: espClassOf(provider) === "UNKNOWN" ? "OTHER" : espClassOf(provider),
          authType: "PASSWORD",
          smtpHost: smtp.host,
          smtpPort: smtp.port,
          smtpSecurity: smtp.security,
          smtpUsername: smtp.username,
          smtpPasswordEnc: encryptSecret(smtp.password),
          imapHost: imap.host,
          imapPort: imap.port,
          imapSecurity: imap.security,
          imapUsername: imap.username,
          imapPasswordEnc: encryptSecret(imap.password),
          senderName: item.senderName === undefined ? undefined : item.senderName || null,
          signatureHtml: item.signatureHtml === undefined ? undefined : item.signatureHtml || null,
          dailySendCap: item.dailySendCap,
          warmupGroup: item.warmupGroup === undefined ? undefined : item.warmupGroup || null,
          isSeed: item.isSeed,
        },
        ["senderName", "signatureHtml", "dailySendCap", "warmupGroup", "isSeed"],
        "bulk_import",
      );
      await addMailboxTags(ctx.db, ctx.workspaceId, row.id, tagIds);
      saved.push({ index, row, created });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const code = (e.extra as { smtpResponseCode?: number } | undefined)?.smtpResponseCode;
      failed.push({ index, email: n.email, error: e.message, ...(code ? { smtpResponseCode: code } : {}) });
    }
  });
  saved.sort((a, b) => a.index - b.index);
  failed.sort((a, b) => a.index - b.index);
  const rows = saved.map((s) => s.row);
  return {
    created: saved.filter((s) => s.created).length,
    updated: saved.filter((s) => !s.created).length,
    failed,
    mailboxes: await mailboxViews(ctx.db, rows, ctx.clock.now()),
  };
}
