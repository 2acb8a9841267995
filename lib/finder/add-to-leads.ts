import { and, eq, inArray } from "drizzle-orm";
import { finderPeople } from "../../db/schema";
import { addLeadsToCampaign } from "../campaigns/campaign-leads";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { BadRequestError } from "../errors";
import { createLeads } from "../leads/create-leads";
import type { LeadInput } from "../leads/schemas";
import { getEnrichJob } from "./enrich-jobs";

/**
 * POST /finder/enrich/jobs/<id>/add-to-leads { campaignId?, personIds?, includeCatchAll? }: the job's
 * people with a found address become leads through POST /leads's own verb (merge by email, suppressed
 * addresses skipped and reported), then, with a campaignId, join that campaign through
 * POST /campaigns/<id>/leads's verb (suppression and mailbox assignment). VALID addresses,
 * and CATCH_ALL ones unless includeCatchAll is false; INVALID and UNKNOWN never. One transaction: an
 * unknown campaign (404) adds no lead either.
 */
export async function addJobToLeads(
  ctx: Ctx,
  jobId: string,
  input: { campaignId?: string; personIds?: string[]; includeCatchAll: boolean },
) {
  requireAccess(ctx, "write");
  const job = await getEnrichJob(ctx, jobId);
  if (job.kind !== "ENRICH") throw new BadRequestError("This job verified existing leads; only enrichment jobs add leads");
  const statuses = input.includeCatchAll ? ["VALID", "CATCH_ALL"] : ["VALID"];
  const wanted = input.personIds ? new Set(input.personIds) : undefined;
  const picked = job.results.filter(
    (r) => r.personId && r.email && !r.pending && statuses.includes(r.verificationStatus) && (!wanted || wanted.has(r.personId)),
  );
  return withTransaction(ctx, async (tx, txCtx) => {
    const ids = picked.map((r) => r.personId as string);
    const people = ids.length
      ? await tx
          .select()
          .from(finderPeople)
          .where(and(eq(finderPeople.workspaceId, ctx.workspaceId), inArray(finderPeople.id, ids)))
      : [];
    const byId = new Map(people.map((p) => [p.id, p]));
    const items: LeadInput[] = picked.flatMap((r) => {
      const p = byId.get(r.personId as string);
      if (!p || !r.email) return [];
      const lead: LeadInput = { email: r.email, verificationStatus: r.verificationStatus };
      if (p.firstName) lead.firstName = p.firstName;
      if (p.lastName) lead.lastName = p.lastName;
      if (p.companyName) lead.companyName = p.companyName;
      if (p.companyDomain) lead.companyDomain = p.companyDomain;
      if (p.title) lead.jobTitle = p.title;
      return [lead];
    });
    const created = items.length ? await createLeads(txCtx, items) : null;
    const leadIds = created?.leadIds ?? [];
    const campaign = input.campaignId ? await addLeadsToCampaign(txCtx, input.campaignId, leadIds) : null;
    return {
      leadIds,
      created: created?.created ?? 0,
      updated: created?.updated ?? 0,
      suppressedEmails: created?.suppressedEmails ?? [],
      campaign: campaign && { campaignId: input.campaignId as string, added: campaign.added, results: campaign.results },
    };
  });
}
