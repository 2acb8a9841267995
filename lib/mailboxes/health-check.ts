import type { JobCtx } from "../ctx";
import { eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { mailboxes } from "../../db/schema";
import type { Clock } from "../clock";
import { emitDisconnected, emitReconnected } from "./events";
import { claimStale } from "../jobs/stale-claims";
import { ImapError, verifyImapLogin } from "../mail/imap";
import { SmtpError, verifySmtpLogin } from "../mail/smtp";
import { withLogin } from "./credentials";
import { READ_FAILING_AFTER_MS, type MailboxRow } from "./view";
import { raiseAlert, resolveAlert } from "../alerts/alerts";
import { readFailingAlert, reconcileMailboxAlerts } from "./alerts";
import { jobsEnv } from "../env";

export function checkIntervalMs(): number {
  return jobsEnv.mailboxCheckIntervalS * 1000;
}

/**
 * Claims mailboxes whose last check is older than the interval (SKIP LOCKED, and the claim itself
 * moves last_checked_at, so several workers never check one mailbox at once).
 */
async function claimDue(db: DbOrTx, now: Date, limit: number): Promise<MailboxRow[]> {
  const ids = await claimStale(
    db,
    { id: mailboxes.id, checkedAt: mailboxes.lastCheckedAt },
    { now, before: new Date(now.getTime() - checkIntervalMs()), orEqual: true, limit },
  );
  if (ids.length === 0) return [];
  return db.select().from(mailboxes).where(inArray(mailboxes.id, ids));
}

type Outcome = { ok: true } | { ok: false; auth: boolean; message: string };

async function probe(fn: () => Promise<void>): Promise<Outcome> {
  try {
    await fn();
    return { ok: true };
  } catch (e) {
    if (e instanceof SmtpError || e instanceof ImapError) return { ok: false, auth: e.kind === "auth", message: e.message };
    return { ok: false, auth: false, message: (e as Error).message };
  }
}

/**
 * Logs in to one mailbox's SMTP and IMAP servers and records the result. LOGIN_FAILING starts at the
 * first refused (or unreachable) SMTP login and emits `mailbox.disconnected` once per outage;
 * the first good login ends it and emits `mailbox.reconnected` once.
 * An IMAP failure starts the READ_FAILING clock; it is reported after 30 minutes.
 */
export async function checkMailbox(db: DbOrTx, clock: Clock, m: MailboxRow): Promise<{ smtp: Outcome; imap: Outcome }> {
  // An OAuth mailbox logs in with its current token (refreshed when near expiry or refused): a revoked
  // consent fails here like a refused password, with the provider's reason.
  const env = { db, clock };
  const [smtp, imap] = await Promise.all([
    probe(() => withLogin(env, m, "smtp", verifySmtpLogin)),
    probe(() => withLogin(env, m, "imap", verifyImapLogin)),
  ]);
  const now = clock.now();
  await db.transaction(async (tx) => {
    // Re-read under lock: the state may have changed while we were talking to the servers.
    const [cur] = await tx.select().from(mailboxes).where(eq(mailboxes.id, m.id)).for("update");
    if (!cur) return;
    const set: Partial<typeof mailboxes.$inferInsert> = {};
    if (!smtp.ok) {
      set.loginError = smtp.message;
      if (!cur.loginFailingSince) {
        set.loginFailingSince = now;
        await emitDisconnected(tx, cur.workspaceId, cur, smtp.message, now);
      }
    } else if (cur.loginFailingSince) {
      set.loginFailingSince = null;
      set.loginError = null;
      await emitReconnected(tx, cur.workspaceId, cur, now);
    }
    if (!imap.ok) {
      set.readError = imap.message;
      if (!cur.readFailingSince) set.readFailingSince = now;
    } else if (cur.readFailingSince) {
      set.readFailingSince = null;
      set.readError = null;
    }
    if (Object.keys(set).length) await tx.update(mailboxes).set(set).where(eq(mailboxes.id, cur.id));
    await healthAlerts(tx, cur, { ...cur, ...set }, now);
  });
  return { smtp, imap };
}

/**
 * LOGIN_FAILING and READ_FAILING alerts follow the mailbox's state as this
 * check leaves it: raised (or refreshed) while the login fails — READ_FAILING only after 30
 * minutes — and resolved when this check clears the failure. A mailbox the user paused reports nothing
 *. Failures cleared elsewhere (PATCH) are closed by the job's reconcile pass.
 */
async function healthAlerts(db: DbOrTx, before: MailboxRow, m: MailboxRow, now: Date): Promise<void> {
  const userPaused = !m.sendingEnabled && !m.autoPausedAt;
  if (m.loginFailingSince && !userPaused) {
    const message = `${m.email}: SMTP login refused: ${m.loginError ?? "unknown error"}`;
    await raiseAlert(db, { workspaceId: m.workspaceId, kind: "LOGIN_FAILING", subject: m.id, mailboxId: m.id, message }, now);
  } else if (before.loginFailingSince && !m.loginFailingSince) await resolveAlert(db, m.workspaceId, "LOGIN_FAILING", m.id, now);
  const readFailing = m.readFailingSince && now.getTime() - m.readFailingSince.getTime() >= READ_FAILING_AFTER_MS;
  if (readFailing && !userPaused) await raiseAlert(db, readFailingAlert(m), now);
  else if (before.readFailingSince && !m.readFailingSince) await resolveAlert(db, m.workspaceId, "READ_FAILING", m.id, now);
}

/** The periodic login check: due mailboxes, 25 at a time, at most 500 a run; first, mailbox alerts whose condition ended are closed. */
export async function runMailboxHealthChecks({ db, clock }: JobCtx) {
  await reconcileMailboxAlerts(db, clock.now());
  let checked = 0;
  let failing = 0;
  for (;;) {
    const batch = await claimDue(db, clock.now(), 25);
    if (batch.length === 0) break;
    const results = await Promise.all(batch.map((m) => checkMailbox(db, clock, m)));
    checked += batch.length;
    failing += results.filter((r) => !r.smtp.ok || !r.imap.ok).length;
    if (checked >= 500) break; // leave the rest to the next run
  }
  return { checked, failing };
}
