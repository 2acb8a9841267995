import { and, eq } from "drizzle-orm";
import { bulkUpdate } from "../../db/bulk";
import { placementResults, placementTests } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { ConflictError, NotFoundError } from "../errors";
import { newId } from "../ids";
import { newMessageId } from "../mail/message-id";
import { classifySmtpError, type SmtpError } from "../mail/smtp";
import type { LoginEnv } from "../mailboxes/credentials";
import { dropTransport, sendPooledAs } from "../sending/transports";
import { findMailbox, type MailboxRow } from "../mailboxes/view";
import { emitCompleted, finishTest } from "./finish";
import { placementWaitMs } from "./rules";
import type { CreatePlacementInput } from "./schemas";
import { type Seed, SeedPoolError, seedsFor } from "./seeds";

/** How long the request that sends the probes holds its test (a crash mid-send frees it for the job after this). */
const SEND_LEASE_MS = 5 * 60_000;

/** What POST /placement-tests answers (202). */
export interface Started {
  id: string;
  batchId: string;
  status: "RUNNING" | "FAILED" | "NO_SEED_POOL";
  seedCount: number;
}

/** An ordinary note when the caller gives no content: a probe should read like the mailbox's real mail. */
function probeContent(m: MailboxRow, input: CreatePlacementInput): { subject: string; text: string } {
  const name = m.senderName || m.email.slice(0, m.email.indexOf("@"));
  return {
    subject: input.subject || "Quick question",
    text:
      input.body ??
      `Hi,\n\nI wanted to check whether you had a chance to look at my last note. Happy to send more details if useful.\n\nBest,\n${name}`,
  };
}

/** The sender, checked: this workspace's, not a seed (seeds receive probes), its SMTP login not failing. */
async function senderOf(ctx: Ctx, mailboxId: string): Promise<MailboxRow> {
  const m = await findMailbox(ctx.db, ctx.workspaceId, mailboxId);
  if (!m) throw new NotFoundError("Mailbox");
  if (m.isSeed) throw new ConflictError(`${m.email} is a seed: it receives placement probes and cannot be the mailbox tested`);
  if (m.loginFailingSince) {
    throw new ConflictError(
      `${m.email} cannot send: its SMTP login is failing${m.loginError ? ` (${m.loginError})` : ""}. Fix it, then test again`,
    );
  }
  return m;
}

type NewTest = typeof placementTests.$inferInsert;

/** A test finished at creation (no seeds, or a bad pool file): one transaction with its event. */
async function finishedAtOnce(ctx: Ctx, row: NewTest): Promise<Started> {
  await ctx.db.transaction(async (tx) => {
    const [t] = await tx.insert(placementTests).values(row).returning();
    await emitCompleted(tx, t, row.completedAt as Date);
  });
  return { id: row.id, batchId: row.batchId, status: row.status as Started["status"], seedCount: 0 };
}

type Probe = { seed: Seed; messageId: string };

/**
 * Sends the probes, one per seed with its own Message-ID, over one SMTP connection, in seed order. A
 * login refused (an OAuth mailbox's token refresh refused included) or a server unreachable ends the
 * run: the seeds not tried get the same error. Returns the failures by Message-ID.
 */
async function sendProbes(env: LoginEnv, m: MailboxRow, probes: Probe[], content: { subject: string; text: string }) {
  const failed = new Map<string, string>();
  let fatal: SmtpError | undefined;
  for (const p of probes) {
    if (fatal) {
      failed.set(p.messageId, fatal.message);
      continue;
    }
    try {
      // The mailbox's pooled connection, logged in as it sends campaigns (an OAuth token refused is refreshed once).
      const info = await sendPooledAs(env, m, {
        from: m.senderName ? { name: m.senderName, address: m.email } : m.email,
        to: p.seed.email,
        subject: content.subject,
        text: content.text,
        messageId: p.messageId,
      });
      if (info.rejected.length) failed.set(p.messageId, `Recipient refused: ${String(info.response)}`);
    } catch (e) {
      const err = classifySmtpError(e);
      failed.set(p.messageId, err.message);
      if (err.kind !== "rejected") {
        fatal = err;
        dropTransport(m.id);
      }
    }
  }
  return failed;
}

/**
 * POST /placement-tests: a probe from the mailbox to every seed (the workspace's seed mailboxes and the
 * installation's pool), then read back by the placement job until found or PLACEMENT_WAIT_S. No seeds:
 * NO_SEED_POOL at once. The results are written PENDING with their Message-IDs before any SMTP, so the
 * seeds' inbox sync knows the probes whenever they arrive; a probe that cannot be sent is MISSING with
 * its error, and a test none of whose probes went out is FAILED. Each finished test fires
 * placement.completed once.
 */
export async function startPlacementTest(ctx: Ctx, input: CreatePlacementInput): Promise<Started> {
  requireAccess(ctx, "write");
  const m = await senderOf(ctx, input.mailboxId);
  const now = ctx.clock.now();
  const content = probeContent(m, input);
  const base = { id: newId("plt"), batchId: newId("plb"), workspaceId: ctx.workspaceId, mailboxId: m.id, subject: content.subject };
  const row: NewTest = {
    ...base,
    bodyText: content.text,
    status: "RUNNING",
    createdAt: now,
    deadlineAt: new Date(now.getTime() + placementWaitMs()),
  };
  let seeds: Seed[];
  try {
    seeds = await seedsFor(ctx, ctx.workspaceId, m);
  } catch (e) {
    if (!(e instanceof SeedPoolError)) throw e;
    ctx.log.error("placement: seed pool unusable", { error: e.message });
    return finishedAtOnce(ctx, { ...row, status: "FAILED", error: e.message, completedAt: now });
  }
  if (!seeds.length) return finishedAtOnce(ctx, { ...row, status: "NO_SEED_POOL", completedAt: now });

  const probes = seeds.map((seed) => ({ seed, messageId: newMessageId(m.email), id: newId("plr") }));
  await ctx.db.transaction(async (tx) => {
    // Leased to this request while it sends, so the job neither reads nor finishes the test meanwhile.
    await tx.insert(placementTests).values({ ...row, seedCount: seeds.length, leaseUntil: new Date(now.getTime() + SEND_LEASE_MS) });
    await tx.insert(placementResults).values(
      probes.map((p) => ({
        id: p.id,
        testId: row.id,
        seedEmail: p.seed.email,
        seedMailboxId: p.seed.mailboxId,
        provider: p.seed.provider,
        messageId: p.messageId,
      })),
    );
  });
  const failed = await sendProbes(ctx, m, probes, content);
  return recordSends(ctx, row, probes, failed);
}

/** After sending: failed probes MISSING with their error; the wait counted from now; FAILED when nothing went out. */
async function recordSends(
  ctx: Ctx,
  row: NewTest,
  probes: { id: string; messageId: string }[],
  failed: Map<string, string>,
): Promise<Started> {
  const now = ctx.clock.now();
  const rows = probes.flatMap((p) =>
    failed.has(p.messageId) ? [{ id: p.id, placement: "MISSING" as const, sendError: failed.get(p.messageId)! }] : [],
  );
  await bulkUpdate(ctx.db, placementResults, "id", rows);
  const started = { id: row.id, batchId: row.batchId, seedCount: probes.length };
  if (failed.size === probes.length) {
    const first = failed.values().next().value;
    await finishTest(ctx.db, row.id, "FAILED", now, `No probe could be sent: ${first}`);
    return { ...started, status: "FAILED" };
  }
  await ctx.db
    .update(placementTests)
    .set({ deadlineAt: new Date(now.getTime() + placementWaitMs()), leaseUntil: null })
    .where(and(eq(placementTests.id, row.id), eq(placementTests.status, "RUNNING")));
  return { ...started, status: "RUNNING" };
}
