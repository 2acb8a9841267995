import { and, asc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { oauthBulkJobs, oauthBulkResults } from "../../db/schema";
import { type Ctx, requireAccess, withTransaction } from "../ctx";
import { normalizeEmail } from "../emails";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { checkTags } from "./connect";
import { pickTenant } from "../oauth/admin-consent";
import { oauthApp, type OAuthProviderId } from "../oauth/providers";
import type { bulkConnectBody } from "../oauth/schemas";
import { loadServiceAccount } from "../oauth/service-account";

type BulkInput = z.infer<typeof bulkConnectBody>;

/** The addresses, normalized and without repeats (case-insensitive); a malformed one is a 400 on its index. */
function addressesOf(raw: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  raw.forEach((r, i) => {
    const n = normalizeEmail(r);
    if (!n.ok) fieldErrors[`emails.${i}`] = [n.reason];
    else if (!seen.has(n.email.toLowerCase())) {
      seen.add(n.email.toLowerCase());
      out.push(n.email);
    }
  });
  const bad = Object.keys(fieldErrors);
  if (bad.length) throw new ValidationError(`${bad.join(", ")}: not an email address`, { fieldErrors, formErrors: [] });
  return out;
}

/**
 * POST /mailboxes/oauth/<provider>/bulk: queues a bulk connect (202). What it needs is checked now, so a
 * job is never queued to fail on every address: Google a service account, Microsoft the app configured
 * and a consented tenant. The oauth-bulk job (oauth-bulk-run.ts) connects the addresses.
 */
export async function startBulkConnect(ctx: Ctx, provider: OAuthProviderId, input: BulkInput) {
  requireAccess(ctx, "write");
  const emails = addressesOf(input.emails);
  const tagIds = await checkTags(ctx.db, ctx.workspaceId, input.tagIds);
  let tenantId: string | null = null;
  if (provider === "GOOGLE") {
    if (input.tenantId) throw ValidationError.field("tenantId", "is for Microsoft tenants only");
    if (!(await loadServiceAccount(ctx.db, ctx.workspaceId))) {
      throw new BadRequestError(
        "The workspace has no Google service account: PUT /mailboxes/oauth/google/service-account with its JSON key first (docs/oauth.md, Bulk)",
      );
    }
  } else {
    oauthApp("MICROSOFT");
    tenantId = await pickTenant(ctx, input.tenantId);
  }
  const id = newId("job");
  const now = ctx.clock.now();
  const options = { senderName: input.senderName || undefined, warmupGroup: input.warmupGroup || undefined, tagIds };
  await withTransaction(ctx, async (tx) => {
    await tx.insert(oauthBulkJobs).values({
      id,
      workspaceId: ctx.workspaceId,
      provider,
      tenantId,
      status: "QUEUED",
      options: JSON.parse(JSON.stringify(options)),
      total: emails.length,
      createdAt: now,
    });
    await tx.insert(oauthBulkResults).values(emails.map((email, position) => ({ jobId: id, email, position })));
  });
  return { jobId: id, status: "QUEUED" as const, total: emails.length };
}

async function findJob(ctx: Ctx, provider: OAuthProviderId, id: string) {
  const [job] = await ctx.db
    .select()
    .from(oauthBulkJobs)
    .where(and(eq(oauthBulkJobs.id, id), eq(oauthBulkJobs.workspaceId, ctx.workspaceId), eq(oauthBulkJobs.provider, provider)));
  if (!job) throw new NotFoundError("Bulk connect job");
  return job;
}

/** GET /mailboxes/oauth/<provider>/bulk/<jobId>: status, counts and every address's outcome, in the order given. */
export async function getBulkJob(ctx: Ctx, provider: OAuthProviderId, id: string) {
  const job = await findJob(ctx, provider, id);
  const results = await ctx.db
    .select()
    .from(oauthBulkResults)
    .where(eq(oauthBulkResults.jobId, id))
    .orderBy(asc(oauthBulkResults.position));
  return {
    id: job.id,
    provider: job.provider,
    tenantId: job.tenantId,
    status: job.status,
    total: job.total,
    done: job.done,
    connected: job.connected,
    failed: job.failed,
    error: job.error,
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
    results: results.map((r) => ({ email: r.email, status: r.status, mailboxId: r.mailboxId, created: r.created, error: r.error })),
  };
}

/** POST …/bulk/<jobId>/cancel: addresses not tried yet are left alone; a run in progress loses its lease and stops after its batch. */
export async function cancelBulkJob(ctx: Ctx, provider: OAuthProviderId, id: string) {
  requireAccess(ctx, "write");
  await findJob(ctx, provider, id);
  await ctx.db
    .update(oauthBulkJobs)
    .set({ status: "CANCELLED", leaseUntil: null, completedAt: ctx.clock.now() })
    .where(and(eq(oauthBulkJobs.id, id), inArray(oauthBulkJobs.status, ["QUEUED", "RUNNING"])));
  return getBulkJob(ctx, provider, id);
}
