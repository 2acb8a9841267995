import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { domains, mailboxTags, mailboxes, tags } from "../../db/schema";
import { warmupViews } from "./warmup-view";
import type { MailboxView, WarmupView } from "./schemas";

export type MailboxRow = typeof mailboxes.$inferSelect;

/** READ_FAILING is reported once replies have been unreadable this long. */
export const READ_FAILING_AFTER_MS = 30 * 60_000;

export function healthStatus(m: MailboxRow, now: Date): MailboxView["healthStatus"] {
  if (!m.sendingEnabled && !m.autoPausedAt) return "PAUSED";
  if (m.autoPausedAt) return "AUTO_PAUSED";
  if (m.loginFailingSince) return "LOGIN_FAILING";
  if (m.readFailingSince && now.getTime() - m.readFailingSince.getTime() >= READ_FAILING_AFTER_MS) return "READ_FAILING";
  if (!m.lastCheckedAt) return "UNCHECKED";
  return "HEALTHY";
}

interface ViewParts {
  domain: string;
  tags: MailboxView["tags"];
  warmup: WarmupView | null;
}

function view(m: MailboxRow, parts: ViewParts, now: Date): MailboxView {
  const { domain, tags: tagList } = parts;
  return {
    id: m.id,
    email: m.email,
    emailAddress: m.email,
    domain,
    domainId: m.domainId,
    senderName: m.senderName,
    signatureHtml: m.signatureHtml,
    provider: m.provider,
    espClass: m.espClass,
    authType: m.authType,
    smtpHost: m.smtpHost,
    smtpPort: m.smtpPort,
    smtpSecurity: m.smtpSecurity,
    smtpUsername: m.smtpUsername,
    imapHost: m.imapHost,
    imapPort: m.imapPort,
    imapSecurity: m.imapSecurity,
    imapUsername: m.imapUsername,
    dailySendCap: m.dailySendCap,
    sendingEnabled: m.sendingEnabled,
    assumedWarm: m.assumedWarm,
    warmupGroup: m.warmupGroup,
    warmupStatus: m.warmupStatus,
    warmup: parts.warmup,
    isSeed: m.isSeed,
    healthStatus: healthStatus(m, now),
    loginError: m.loginError,
    readError: m.readError,
    lastCheckedAt: m.lastCheckedAt?.toISOString() ?? null,
    tags: tagList,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

/** Serialises mailbox rows (with their domain and tags) in the given order. Passwords never leave. */
export async function mailboxViews(db: DbOrTx, rows: MailboxRow[], now: Date): Promise<MailboxView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [doms, tagRows, warmups] = await Promise.all([
    db
      .select({ id: domains.id, domain: domains.domain })
      .from(domains)
      .where(inArray(domains.id, [...new Set(rows.map((r) => r.domainId))])),
    db
      .select({ mailboxId: mailboxTags.mailboxId, id: tags.id, name: tags.name, color: tags.color })
      .from(mailboxTags)
      .innerJoin(tags, eq(tags.id, mailboxTags.tagId))
      .where(inArray(mailboxTags.mailboxId, ids))
      .orderBy(asc(tags.name)),
    warmupViews(db, ids, now),
  ]);
  const domainById = new Map(doms.map((d) => [d.id, d.domain]));
  const tagsBy = new Map<string, MailboxView["tags"]>();
  for (const t of tagRows)
    (tagsBy.get(t.mailboxId) ?? tagsBy.set(t.mailboxId, []).get(t.mailboxId)!).push({ id: t.id, name: t.name, color: t.color });
  return rows.map((r) =>
    view(
      r,
      { domain: domainById.get(r.domainId) ?? r.email.split("@")[1], tags: tagsBy.get(r.id) ?? [], warmup: warmups.get(r.id) ?? null },
      now,
    ),
  );
}

export async function findMailbox(db: DbOrTx, workspaceId: string, id: string): Promise<MailboxRow | undefined> {
  const [row] = await db
    .select()
    .from(mailboxes)
    .where(and(eq(mailboxes.id, id), eq(mailboxes.workspaceId, workspaceId)));
  return row;
}
