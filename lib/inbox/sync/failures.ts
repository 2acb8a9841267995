import { sql } from "drizzle-orm";
import { selectRows } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { alerts, imapState, mailboxes } from "../../../db/schema";
import { currentClock } from "../../clock";
import { raiseReadFailing } from "../../mailboxes/alerts";
import { READ_FAILING_AFTER_MS } from "../../mailboxes/view";
import { ImapBackoffError } from "../connections";
import { jobsEnv } from "../../env";

/** A mailbox whose sync keeps failing is tried again after at most this long (or its connection's backoff, if longer). */
export const MAX_RETRY_MS = 5 * 60_000;

export function pollIntervalMs(): number {
  return jobsEnv.imapPollIntervalS * 1000;
}

/** What a failed sync says, for the mailbox's `readError` (the IMAP server's words when there are some). */
function readErrorOf(e: unknown): string {
  const cause = e instanceof ImapBackoffError && e.cause ? e.cause : e;
  const x = cause as { responseText?: string; message?: string; code?: string } | undefined;
  return String(x?.responseText || x?.message || x?.code || e).slice(0, 1000);
}

const col = (c: { name: string }) => sql.identifier(c.name);

/**
 * A sync that failed, for whatever reason (login, connection, a command, the backoff after earlier
 * failures): the mailbox's replies are unreadable, so READ_FAILING's clock runs (reported
 * after 30 minutes; the health check's login probe starts it too), and the mailbox is not claimed
 * again before its retry time — the poll interval, growing with how long it has been failing up to
 * MAX_RETRY_MS, or its connection's backoff — so failing mailboxes never crowd out the others.
 * The clock starts at this failure, or — when the attempt before failed too, and the health check's
 * good login has cleared it meanwhile — at the last successful sync (when the mailbox was added, if
 * never): a failure the login probe cannot see (a command, a dropped connection) still gets reported.
 * One statement: the retry time is kept on the INBOX's imap_state row (`leased_until`).
 */
export async function recordSyncFailure(db: DbOrTx, now: Date, mailboxId: string, e: unknown, backoffMs: number): Promise<void> {
  const floorMs = Math.max(pollIntervalMs(), backoffMs);
  const at = now.toISOString();
  const rows = await selectRows<{ since: string | Date | null }>(
    db,
    sql`
    with old as (
      select ${imapState.lastSyncAt} as last_sync_at, ${imapState.leasedUntil} as leased_until from ${imapState}
      where ${imapState.mailboxId} = ${mailboxId} and ${imapState.folder} = 'INBOX'
    ),
    flagged as (
      update ${mailboxes} set ${col(mailboxes.readError)} = ${readErrorOf(e)},
        ${col(mailboxes.readFailingSince)} = coalesce(${mailboxes.readFailingSince}, case
          when exists (select 1 from old where leased_until is not null) then coalesce((select last_sync_at from old), ${mailboxes.createdAt})
          else ${at}::timestamptz end)
      where ${mailboxes.id} = ${mailboxId}
      returning ${mailboxes.readFailingSince} as since
    )
    insert into ${imapState} (${col(imapState.mailboxId)}, ${col(imapState.folder)}, ${col(imapState.uidValidity)}, ${col(imapState.lastUid)},
      ${col(imapState.leasedUntil)})
    select ${mailboxId}::text, 'INBOX', '', 0, ${at}::timestamptz
      + greatest(${floorMs}::float8 * interval '1 millisecond', least(${at}::timestamptz - f.since, ${MAX_RETRY_MS}::float8 * interval '1 millisecond'))
    from flagged f
    on conflict (${col(imapState.mailboxId)}, ${col(imapState.folder)}) do update set ${col(imapState.leasedUntil)} = excluded.${col(imapState.leasedUntil)}
    returning (select since from flagged) as since`,
  );
  // READ_FAILING is an alert only after 30 minutes of failing; until then it is just a retry.
  const since = rows[0]?.since;
  if (since && now.getTime() - new Date(since).getTime() >= READ_FAILING_AFTER_MS) await raiseReadFailing(db, mailboxId, now);
}

/** A sync that worked after failures: readable again (its READ_FAILING alert resolved), no retry time. */
export async function recordSyncRecovered(db: DbOrTx, mailboxId: string, now: Date = currentClock().now()): Promise<void> {
  await selectRows(
    db,
    sql`
    with readable as (
      update ${mailboxes} set ${col(mailboxes.readFailingSince)} = null, ${col(mailboxes.readError)} = null
      where ${mailboxes.id} = ${mailboxId} and ${mailboxes.readFailingSince} is not null
    ),
    resolved as (
      update ${alerts} set ${col(alerts.resolvedAt)} = ${now.toISOString()}::timestamptz
      where ${alerts.mailboxId} = ${mailboxId} and ${alerts.kind} = 'READ_FAILING' and ${alerts.resolvedAt} is null
    )
    update ${imapState} set ${col(imapState.leasedUntil)} = null
    where ${imapState.mailboxId} = ${mailboxId} and ${imapState.folder} = 'INBOX' and ${imapState.leasedUntil} is not null`,
  );
}
