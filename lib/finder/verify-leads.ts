import { type Ctx, withTransaction } from "../ctx";
import { createLeads } from "../leads/create-leads";
import type { CreateLeadsResult, LeadInput } from "../leads/schemas";
import { startLeadVerification } from "./enrich-jobs";

/**
 * POST /leads with `verify: true`: the leads are saved exactly as without it, and in the same
 * transaction a LEADS verification job is queued for the saved ones (suppressed and invalid addresses
 * are not saved, so not verified). The finder-enrich job then sets each lead's verificationStatus.
 */
export async function createLeadsAndVerify(ctx: Ctx, leads: LeadInput[]): Promise<CreateLeadsResult> {
  return withTransaction(ctx, async (_tx, txCtx) => {
    const result = await createLeads(txCtx, leads);
    return { ...result, verificationJobId: await startLeadVerification(txCtx, result.leadIds) };
  });
}
