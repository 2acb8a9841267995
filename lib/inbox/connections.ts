import { createHash } from "node:crypto";
import type { Socket } from "node:net";
import { closeImap, connectImap, type ImapClient, logoutImap } from "../mail/imap-ops";
import { type Clock, currentClock, systemClock } from "../clock";
import type { ImapConfig } from "../mail/imap";
import { limiter } from "../concurrency";
import { jobsEnv } from "../env";

/**
 * Long-lived IMAP connections of the worker sidecar (architecture: the sidecar keeps what a serverless
 * function cannot): one per mailbox, reused between sync cycles, replaced when the credentials change
 * or the server drops it, and a mailbox whose connection keeps failing is retried with backoff.
 */
interface Entry {
  key: string;
  client?: ImapClient;
  failures: number;
  retryAt: number;
  lastUsed: number;
  /** Why the last connect failed (repeated by the backoff refusals). */
  lastError?: unknown;
}

/** Thrown while a mailbox is backing off: its `cause` is the failure that started the wait. */
export class ImapBackoffError extends Error {
  constructor(
    message: string,
    readonly retryInMs: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * TCP_NODELAY on a connected client's socket (imapflow leaves Nagle's algorithm on and takes no option
 * for it): a command written in two pieces would otherwise wait for the server's delayed ACK.
 */
export function noDelay(client: ImapClient): void {
  const socket = (client as { socket?: unknown }).socket as Partial<Socket> | undefined;
  socket?.setNoDelay?.(true);
}

const MAX_BACKOFF_MS = 30 * 60_000;
const IDLE_CLOSE_MS = 10 * 60_000;

export class ImapConnections {
  private entries = new Map<string, Entry>();
  /** Connects are staggered: at most half the sync's reads in flight log in at once (the server sees no burst of logins). */
  private connectGate = limiter(Math.ceil(jobsEnv.imapSync().concurrency / 2));

  /** Time from the injected clock: this one, or the process's current clock when none is given (read at each use). */
  constructor(private readonly clock?: Clock) {}

  private now(): number {
    return (this.clock ?? currentClock()).now().getTime();
  }

  /** Seconds until this mailbox may be tried again (0 = now). */
  backoffLeft(mailboxId: string): number {
    const e = this.entries.get(mailboxId);
    return e ? Math.max(0, Math.ceil((e.retryAt - this.now()) / 1000)) : 0;
  }

  async get(mailboxId: string, cfg: ImapConfig): Promise<ImapClient> {
    const key = createHash("sha1").update(JSON.stringify(cfg)).digest("hex");
    let e = this.entries.get(mailboxId);
    if (e && e.key !== key) {
      this.drop(mailboxId);
      e = undefined;
    }
    if (e?.client?.usable) {
      e.lastUsed = this.now();
      return e.client;
    }
    if (e && e.retryAt > this.now()) {
      const why = e.lastError as { responseText?: string; message?: string } | undefined;
      const reason = why?.responseText || why?.message;
      throw new ImapBackoffError(
        `IMAP connection backing off for ${this.backoffLeft(mailboxId)} s after ${e.failures} failure(s)${reason ? `: ${reason}` : ""}`,
        e.retryAt - this.now(),
        { cause: e.lastError },
      );
    }
    let client: ImapClient;
    // The sync polls (every IMAP_POLL_INTERVAL_S). imapflow's auto-IDLE would start after 15 s quiet and
    // every next cycle would first spend a round trip ending it (DONE); a poll cycle keeps the
    // connection alive well within imapflow's 5-minute socket timeout (a longer interval: reconnects).
    try {
      client = await this.connectGate(() => connectImap(cfg, { autoIdle: false }));
      noDelay(client);
    } catch (err) {
      const failures = (e?.failures ?? 0) + 1;
      this.entries.set(mailboxId, {
        key,
        failures,
        retryAt: this.now() + Math.min(MAX_BACKOFF_MS, 30_000 * 2 ** (failures - 1)),
        lastUsed: this.now(),
        lastError: err,
      });
      throw err;
    }
    this.entries.set(mailboxId, { key, client, failures: 0, retryAt: 0, lastUsed: this.now() });
    return client;
  }

  /** Forgets a mailbox's backoff (someone found it reachable again, or its settings changed): the next get() connects. */
  clearBackoff(mailboxId: string): void {
    const e = this.entries.get(mailboxId);
    if (e && !e.client) this.entries.delete(mailboxId);
  }

  /** After an error mid-sync the connection is not trusted again. */
  drop(mailboxId: string): void {
    const e = this.entries.get(mailboxId);
    if (e?.client) closeImap(e.client);
    if (e) e.client = undefined;
  }

  /** Whether this mailbox holds a usable kept connection. */
  holds(mailboxId: string): boolean {
    return !!this.entries.get(mailboxId)?.client?.usable;
  }

  /** A rotating mailbox's read is over: its connection is logged out, its backoff record kept. */
  async release(mailboxId: string): Promise<void> {
    const e = this.entries.get(mailboxId);
    if (!e?.client) return;
    const client = e.client;
    e.client = undefined;
    await logoutImap(client);
  }

  closeIdle(): number {
    let closed = 0;
    for (const [id, e] of this.entries) {
      if (e.client && this.now() - e.lastUsed > IDLE_CLOSE_MS) {
        closeImap(e.client);
        this.entries.delete(id);
        closed++;
      }
    }
    return closed;
  }

  async closeAll(): Promise<void> {
    for (const e of this.entries.values()) if (e.client) await logoutImap(e.client);
    this.entries.clear();
  }

  get size(): number {
    return [...this.entries.values()].filter((e) => e.client?.usable).length;
  }
}

/**
 * The sidecar's connections (one process, many cycles), on the system clock: a connection's backoff
 * and idle time are spans of real time, whatever clock the jobs' rules are tested with.
 */
export const sidecarConnections = new ImapConnections(systemClock);
