import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { oauthBulkJobs, oauthBulkResults } from "../../db/schema";
import { mapLimit } from "../concurrency";
import type { Ctx, JobCtx } from "../ctx";
import { AppError } from "../errors";
import { ImapError, verifyImapLogin } from "../mail/imap";
import { SmtpError, verifySmtpLogin } from "../mail/smtp";
import { appOnlyToken, EXCHANGE_APP_SCOPE } from "../oauth/admin-consent";
import type { AppGrantKind } from "../oauth/app-grants";
import { type ConnectOptions, oauthHosts, saveOAuthMailbox } from "./oauth-connect";
import { OAuthError, type TokenResponse } from "../oauth/http";
import { delegatedToken, GOOGLE_MAIL_SCOPE } from "../oauth/service-account";
import { leasedJobs } from "../jobs/leased";

/**
 * The oauth-bulk job (inngest/functions/oauth-bulk.ts): connects the addresses of queued bulk connects.
 * Leased like the blacklist checks (lease_until is also the holder's token; every progress write checks
 * it and moves it on): two workers never run one job, and one that dies leaves the rest to the next run,
 * which tries only the addresses still PENDING. Connecting an address twice is harmless (an upsert).
 */

const LEASE_MS = 90_000;
/** A run stops starting batches after this long; the next run goes on. */
const RUN_BUDGET_MS = 20_000;
/** Addresses tried at once (each is a token request and an SMTP and an IMAP login), and per progress write. */
const BATCH = 4;

type Job = typeof oauthBulkJobs.$inferSelect;
type Outcome = { email: string; mailboxId?: string; created?: boolean; error?: string };

const jobs = leasedJobs(oauthBulkJobs, LEASE_MS);
const claimJob = jobs.claim;
const whileHeld = jobs.whileHeld;

/** Why a login was refused, in the server's words, naming the protocol. */
function loginFailure(protocol: "SMTP" | "IMAP", e: unknown): string {
  const msg = e instanceof SmtpError || e instanceof ImapError ? e.message : (e as Error).message;
  return `${protocol} login with XOAUTH2 failed: ${msg}`;
}

/** One address: a token for it, a real XOAUTH2 SMTP and IMAP login, then the mailbox saved. Never throws for the address's own failures. */
async function connectOne(ctx: Ctx, job: Job, email: string, tenantToken: () => Promise<TokenResponse>): Promise<Outcome> {
  const google = job.provider === "GOOGLE";
  let token: TokenResponse;
  try {
    token = google ? await delegatedToken(ctx.db, job.workspaceId, email, ctx.clock.now()) : await tenantToken();
  } catch (e) {
    if (e instanceof OAuthError || e instanceof AppError) return { email, error: e.message };
    throw e;
  }
  const hosts = oauthHosts(job.provider, email);
  const login = { username: email, password: "", accessToken: token.access_token };
  try {
    await verifySmtpLogin({ host: hosts.smtpHost, port: hosts.smtpPort, security: hosts.smtpSecurity, ...login });
  } catch (e) {
    return { email, error: loginFailure("SMTP", e) };
  }
  try {
    await verifyImapLogin({ host: hosts.imapHost, port: hosts.imapPort, security: hosts.imapSecurity, ...login });
  } catch (e) {
    return { email, error: loginFailure("IMAP", e) };
  }
  const app = { id: job.provider, scopes: [google ? GOOGLE_MAIL_SCOPE : EXCHANGE_APP_SCOPE] };
  const who = { email, subject: email, tenantId: job.tenantId };
  const kind: AppGrantKind = google ? "SERVICE_ACCOUNT" : "APP_ONLY";
  let saved: Awaited<ReturnType<typeof saveOAuthMailbox>>;
  try {
    saved = await saveOAuthMailbox(ctx, app, who, token, job.options as ConnectOptions, kind);
  } catch (e) {
    if (e instanceof AppError) return { email, error: e.message };
    throw e;
  }
  return { email, mailboxId: saved.row.id, created: saved.created };
}

/** Records a batch's outcomes and the job's counts (from the results, so a resumed job counts right), if the job is still ours. */
async function record(db: DbOrTx, job: Job, outcomes: Outcome[], now: Date): Promise<boolean> {
  return db.transaction(async (t) => {
    if (!(await whileHeld(t, job, { leaseUntil: new Date(now.getTime() + LEASE_MS) }))) return false;
    for (const o of outcomes) {
      await t
        .update(oauthBulkResults)
        .set({
          status: o.error ? "FAILED" : "CONNECTED",
          mailboxId: o.mailboxId ?? null,
          created: o.created ?? null,
          error: o.error?.slice(0, 1000) ?? null,
          finishedAt: now,
        })
        .where(and(eq(oauthBulkResults.jobId, job.id), eq(oauthBulkResults.email, o.email)));
    }
    const count = (status: string) =>
      sql<number>`(select count(*)::int from ${oauthBulkResults} where ${oauthBulkResults.jobId} = ${job.id} and ${oauthBulkResults.status} = ${status})`;
    await t
      .update(oauthBulkJobs)
      .set({ connected: count("CONNECTED"), failed: count("FAILED"), done: sql`${count("CONNECTED")} + ${count("FAILED")}` })
      .where(eq(oauthBulkJobs.id, job.id));
    return true;
  });
}

/** A tenant's app-only token, asked once per run and reused while it has minutes left (it is valid for every mailbox of the tenant). */
function tenantTokens(ctx: JobCtx, job: Job): () => Promise<TokenResponse> {
  let held: { token: Promise<TokenResponse>; until: number } | undefined;
  return () => {
    const now = ctx.clock.now().getTime();
    if (!held || held.until < now) {
      const token = appOnlyToken(job.tenantId ?? "");
      held = { token, until: now + 10 * 60_000 };
      token.catch(() => {
        held = undefined;
      });
    }
    return held.token;
  };
}

/** One claimed job, as far as the budget allows. Returns the addresses tried. */
async function runJob(jobCtx: JobCtx, job: Job, until: number): Promise<number> {
  const { db, clock } = jobCtx;
  if (job.status === "QUEUED" && !(await whileHeld(db, job, { status: "RUNNING" }))) return 0;
  const ctx: Ctx = { ...jobCtx, workspaceId: job.workspaceId };
  const pending = await db
    .select({ email: oauthBulkResults.email })
    .from(oauthBulkResults)
    .where(and(eq(oauthBulkResults.jobId, job.id), eq(oauthBulkResults.status, "PENDING")))
    .orderBy(asc(oauthBulkResults.position));
  const token = tenantTokens(jobCtx, job);
  let tried = 0;
  for (let i = 0; i < pending.length; i += BATCH) {
    if (clock.now().getTime() >= until) {
      await whileHeld(db, job, { leaseUntil: null }); // free for the next run at once
      return tried;
    }
    const batch = pending.slice(i, i + BATCH);
    const outcomes = await mapLimit(batch, BATCH, (p) => connectOne(ctx, job, p.email, token));
    if (!(await record(db, job, outcomes, clock.now()))) return tried;
    tried += batch.length;
  }
  await whileHeld(db, job, { status: "COMPLETED", completedAt: clock.now(), leaseUntil: null });
  return tried;
}

/** Runs queued bulk connects, oldest first, within the run's budget. */
export async function runOAuthBulk(ctx: JobCtx) {
  const until = ctx.clock.now().getTime() + RUN_BUDGET_MS;
  let jobs = 0;
  let addresses = 0;
  while (ctx.clock.now().getTime() < until) {
    const job = await claimJob(ctx.db, ctx.clock.now());
    if (!job) break;
    jobs++;
    try {
      addresses += await runJob(ctx, job, until);
    } catch (e) {
      // Not an address failing (those are results): a fault that would stop the job the same way again.
      const error = `The bulk connect stopped: ${(e as Error).message}`.slice(0, 1000);
      ctx.log.warn(`[oauth-bulk] ${job.id}: ${error}`, { jobId: job.id });
      await whileHeld(ctx.db, job, { status: "FAILED", error, completedAt: ctx.clock.now(), leaseUntil: null }).catch(() => false);
    }
  }
  return { jobs, addresses };
}
