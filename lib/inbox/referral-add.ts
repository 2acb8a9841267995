import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { leads, replies } from "../../db/schema";
import { addLeadsToCampaign } from "../campaigns/campaign-leads";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ConflictError, NotFoundError } from "../errors";
import { createLeads } from "../leads/create-leads";
import type { LeadInput } from "../leads/schemas";
import type { addReferralBody } from "./schemas";

type CampaignResult = Awaited<ReturnType<typeof addLeadsToCampaign>>["results"][number];

/** What POST /replies/<id>/referral/add answers: the lead as POST /leads reports it, and its campaign result. */
export interface ReferralAddResult {
  email: string;
  /** The lead created or merged; null when the address is suppressed or malformed (nothing saved). */
  id: string | null;
  status: "created" | "updated" | "suppressed" | "invalid";
  /** Why a malformed address was refused. */
  reason?: string;
  /** The add-to-campaign result of the lead, or null (no campaign, or no lead saved). */
  campaign: CampaignResult | null;
}

/** "Jane Doe" → first name Jane, last name Doe; "Jane Marie van Doe" → Jane / Marie van Doe. */
function nameParts(name: string | undefined): Pick<LeadInput, "firstName" | "lastName"> {
  const words = name?.trim().split(/\s+/).filter(Boolean) ?? [];
  if (words.length === 0) return {};
  return words.length === 1 ? { firstName: words[0] } : { firstName: words[0], lastName: words.slice(1).join(" ") };
}

/** The reply with its lead (who wrote it), in the workspace. */
async function readReply(ctx: Ctx, replyId: string) {
  const [row] = await ctx.db
    .select({
      campaignId: replies.campaignId,
      from: replies.from,
      referral: replies.referral,
      leadEmail: leads.email,
      firstName: leads.firstName,
      lastName: leads.lastName,
    })
    .from(replies)
    .leftJoin(leads, eq(leads.id, replies.leadId))
    .where(and(eq(replies.id, replyId), eq(replies.workspaceId, ctx.workspaceId)));
  if (!row) throw new NotFoundError("Reply");
  return row;
}

/**
 * POST /replies/<id>/referral/add: the person a wrong-person reply points to becomes a lead, created or
 * merged exactly as POST /leads does for one lead (a suppressed or malformed address is reported, not
 * saved), with the custom fields referrerName (the replying lead's full name, else their email) and
 * referrerEmail; then, when a lead was saved, it is added to `campaignId` (default: the reply's
 * campaign) as POST /campaigns/<id>/leads does. All of it in one transaction: an unknown campaign
 * saves no lead. A reply that names no address is a conflict.
 */
export async function addReferralLead(ctx: Ctx, replyId: string, body: z.infer<typeof addReferralBody>): Promise<ReferralAddResult> {
  requireAccess(ctx, "write");
  const reply = await readReply(ctx, replyId);
  const email = reply.referral?.email;
  if (!email) throw new ConflictError("This reply names no referral address to add as a lead");
  const referrerEmail = reply.leadEmail ?? reply.from?.address ?? null;
  const fullName = [reply.firstName, reply.lastName].filter((s) => s?.trim()).join(" ");
  const referrerName = fullName || referrerEmail;
  const customFields: Record<string, string> = {};
  if (referrerName) customFields.referrerName = referrerName;
  if (referrerEmail) customFields.referrerEmail = referrerEmail;
  const input: LeadInput = { email, ...nameParts(reply.referral?.name), customFields };
  return withTransaction(ctx, async (tx, tctx) => {
    const created = await createLeads(tctx, [input]);
    const lead = created.leads[0];
    if (!lead) {
      const invalid = created.invalidEmails[0];
      await tx.execute(sql`update replies set referral = referral || '{"handled": true}'::jsonb where id = ${replyId}`);
      return invalid
        ? { email: invalid.email, id: null, status: "invalid", reason: invalid.reason, campaign: null }
        : { email: created.suppressedEmails[0] ?? email, id: null, status: "suppressed", campaign: null };
    }
    const campaignId = body.campaignId ?? reply.campaignId;
    const added = campaignId ? await addLeadsToCampaign(tctx, campaignId, [lead.id]) : null;
    // The referral remembers the lead it became (the thread shows it; autonomous handling takes each once).
    await tx.execute(sql`update replies set referral = referral || ${JSON.stringify({ leadId: lead.id })}::jsonb where id = ${replyId}`);
    return { ...lead, campaign: added?.results[0] ?? null };
  });
}
