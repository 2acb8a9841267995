import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { sampleMessages } from "@/lib/campaigns/sample-messages";
import { checkSpamWords } from "@/lib/campaigns/spam-words";
import { scoreWithRspamd } from "@/lib/deliverability/rspamd";
import { rspamdUrl } from "@/lib/env";

/** The spam-word scan, and with RSPAMD_URL each step as sent (for the sample lead) scored by rspamd. */
export const POST = api(r.spamWords, async ({ ctx, params }) => {
  const report = await checkSpamWords(ctx, params.id);
  if (!rspamdUrl()) return { ...report, rspamd: null };
  const scored = await scoreWithRspamd(await sampleMessages(ctx, params.id));
  return {
    ...report,
    rspamd: scored && { error: scored.error, steps: scored.steps.map(({ step, verdict }) => ({ ...step, ...verdict })) },
  };
});
