import type { KeyObject } from "node:crypto";
import type { DbOrTx } from "../../db/client";
import type { Clock } from "../clock";
import { GroupCommit } from "../jobs/group-commit";
import type { Logger } from "../log";
import { type AllowList, allowList } from "../net/ssrf";
import type { Claimed } from "./claim-deliveries";
import { afterAttempt, type Outcome, recordAttempts } from "./record";
import { send, signingSecrets } from "./send";
import { signingKey } from "./signing";

/** Requests in flight at once, across all receivers: one slow receiver holds one lane, not the others. */
export const IN_FLIGHT = 10;
/**
 * Outcomes recorded per statement at most, while requests are still in flight, and how long the first
 * one waits for others (at ~2,500 deliveries/s about 125 per statement; was 50 and 20 ms).
 */
const RECORD_BATCH = 250;
const RECORD_WAIT_MS = 50;
/**
 * A producer adds its next batch once no more than this many deliveries wait or are in flight: more
 * than a dispatch batch, so the next batch is on its way while a full one is still queued and the
 * window does not run dry waiting for it (at 30 it emptied before most dispatches came back).
 */
const LOW_WATER = 600;
/** A queued delivery whose lease ends sooner than this is left to a later claim instead of being sent. */
const LEASE_MARGIN_MS = 5_000;

/**
 * The sending window of one job turn: leased deliveries go in (from claims, or straight from the
 * dispatch that made them), at most 10 requests are in flight, and outcomes are written in group
 * commits while others are still out. Producers wait for `room()` before adding a batch, so the window
 * stays full without deliveries waiting long on their lease.
 */
export class DeliveryWindow {
  readonly report = { attempted: 0, delivered: 0 };
  /** Deliveries not yet started (from `head` on), how many are in flight, and how many of both. */
  private queue: Claimed[] = [];
  private head = 0;
  private active = 0;
  private open = 0;
  /** Producers waiting for room, and finish() waiting for the window to empty. */
  private waiting: (() => void)[] = [];
  private drained: (() => void) | undefined;
  /** The first attempt that threw (it cannot, short of a bug): finish() rethrows it. */
  private failure: { error: unknown } | undefined;
  /** Decrypted once per webhook per window, as HMAC key objects. */
  private readonly keys = new Map<string, KeyObject[]>();
  /** OUTBOUND_ALLOW_HOSTS, read once per window rather than per request (the environment is slow to read). */
  private readonly allow: AllowList = allowList();
  private readonly outcomes: GroupCommit<Outcome[]>;
  // Outcomes go to the group commit RECORD_BATCH at a time, or RECORD_WAIT_MS after the first one
  // waiting, or when the window empties: one UPDATE per answer would cost Postgres a statement per
  // delivery while answers arrive faster than it writes them; the wait bounds what a crash forgets
  // (those deliveries are sent again when their lease runs out).
  private buffered: Outcome[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    db: DbOrTx,
    private readonly clock: Clock,
    log: Logger,
  ) {
    this.outcomes = new GroupCommit<Outcome[]>(
      (groups) => recordAttempts(db, groups.flat()),
      // The rows keep their lease: they are sent again once it runs out (same event id).
      (error, groups) => log.error("webhook outcomes not recorded", { error, deliveries: groups.flat().map((r) => r.id) }),
    );
  }

  add(rows: Claimed[]): void {
    this.open += rows.length;
    for (const row of rows) this.queue.push(row);
    this.pump();
  }

  /** Starts queued deliveries while fewer than IN_FLIGHT are out (a plain queue: no promise per waiting task). */
  private pump(): void {
    while (this.active < IN_FLIGHT && this.head < this.queue.length) {
      const row = this.queue[this.head++];
      this.active++;
      this.attempt(row).catch((error) => {
        this.failure ??= { error };
      });
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
  }

  /** Resolves once at most LOW_WATER deliveries are waiting or in flight. */
  room(): Promise<void> {
    if (this.open <= LOW_WATER) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private done(): void {
    this.active--;
    this.open--;
    this.pump();
    if (this.open === 0) this.drained?.();
    if (this.open > LOW_WATER || this.waiting.length === 0) return;
    const ready = this.waiting;
    this.waiting = [];
    for (const resolve of ready) resolve();
  }

  /** Waits for every delivery added so far and for their outcomes to be written. */
  async finish(): Promise<{ attempted: number; delivered: number }> {
    if (this.open > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    if (this.failure) throw this.failure.error;
    this.hand();
    await this.outcomes.flush();
    return this.report;
  }

  private async attempt(c: Claimed): Promise<void> {
    try {
      const now = this.clock.now();
      // Behind slow receivers a queued delivery can outwait its lease; once the lease is (nearly) over
      // another claim may take it, so it is not sent from here as well (it stays PENDING in the log).
      if (now.getTime() > c.leasedUntil - LEASE_MARGIN_MS) return;
      let s = this.keys.get(c.webhookId);
      if (!s) this.keys.set(c.webhookId, (s = signingSecrets(c.target, now).map(signingKey)));
      const outcome = afterAttempt(c, c.target, await send(c, c.target, s, now, this.allow), now);
      this.report.attempted++;
      if (outcome.status === "DELIVERED") this.report.delivered++;
      this.buffered.push(outcome);
      if (this.buffered.length >= RECORD_BATCH || this.open <= 1) this.hand();
      else this.timer ??= setTimeout(() => this.hand(), RECORD_WAIT_MS);
    } finally {
      this.done();
    }
  }

  private hand(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffered.length) this.outcomes.add(this.buffered);
    this.buffered = [];
  }
}
