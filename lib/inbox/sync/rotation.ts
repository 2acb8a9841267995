/**
 * How one worker shares its reads among many mailboxes (pure rules; sync-pass.ts applies them):
 * how many due mailboxes a cycle claims, in what order they are read, which keep their IMAP connection
 * between cycles and which rotate through (connect, read, log out), and when Junk and Sent are read.
 */

/** A cycle claims at least this many due mailboxes. */
export const MIN_PER_CYCLE = 20;

/**
 * How many due mailboxes a cycle claims: enough that every mailbox is read once per poll interval when a
 * cycle starts every `cycleEveryMs` (twice that, for slack), and at least MIN_PER_CYCLE.
 */
export function cycleSize(mailboxes: number, pollMs: number, cycleEveryMs: number): number {
  return Math.max(MIN_PER_CYCLE, Math.ceil((2 * mailboxes * cycleEveryMs) / Math.max(1, pollMs)));
}

/** A claimed mailbox as the rotation sees it. */
export interface DueMailbox {
  id: string;
  /** When its INBOX was last read (ms), null when never. */
  lastReadAt: number | null;
  /** Its reads are failing (it waited for its retry time). */
  failing: boolean;
  /** It holds a kept connection now. */
  kept: boolean;
}

/**
 * The read order and the connections kept. Healthy mailboxes first, then the failing ones; within each,
 * never read first, then the least recently read (ties by id), so no mailbox waits behind others read
 * more recently. A mailbox that holds a connection keeps it; a new one keeps its connection while the
 * worker holds fewer than `cap` minus the `inFlight` connections reserved for rotating mailboxes; the
 * rest rotate: each read connects, reads and logs out, so the worker never holds more than `cap`.
 */
export function rotation(due: DueMailbox[], opts: { kept: number; cap: number; inFlight: number }): { id: string; keep: boolean }[] {
  const order = [...due].sort(
    (a, b) =>
      Number(a.failing) - Number(b.failing) ||
      (a.lastReadAt ?? Number.NEGATIVE_INFINITY) - (b.lastReadAt ?? Number.NEGATIVE_INFINITY) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  let free = Math.max(0, opts.cap - Math.min(opts.inFlight, opts.cap) - opts.kept);
  return order.map((m) => {
    if (m.kept) return { id: m.id, keep: true };
    const keep = free > 0;
    if (keep) free--;
    return { id: m.id, keep };
  });
}

/**
 * Whether a read includes Junk and Sent: every `every` poll intervals (half an interval early, for the
 * cycles' jitter), and always when they were never read by this worker. INBOX is read every interval.
 */
export function otherFoldersDue(lastAt: number | undefined, now: number, pollMs: number, every: number): boolean {
  return lastAt === undefined || every <= 1 || now - lastAt >= (every - 0.5) * pollMs;
}
