import { and, eq } from "drizzle-orm";
import { type finderEnrichJobs, type finderEnrichResults, finderPeople } from "../../db/schema";
import type { JobCtx } from "../ctx";
import { enrichmentProviders } from "./providers";

type Job = typeof finderEnrichJobs.$inferSelect;
type Result = typeof finderEnrichResults.$inferSelect;

/**
 * A person's candidates with the configured paid providers' answers first (providers.ts): each is asked
 * for the person's address at the domain, and an answer at that domain not guessed already goes to the
 * front — it is still verified over SMTP like a guess. A provider that fails or answers nothing is
 * skipped. Without a configured provider (the default, and every test) nothing is asked.
 */
export async function withProviderGuesses(ctx: JobCtx, job: Job, r: Result): Promise<string[]> {
  const providers = enrichmentProviders();
  if (!providers.length || !r.domain) return r.candidates;
  const [person] = await ctx.db
    .select({ firstName: finderPeople.firstName, lastName: finderPeople.lastName })
    .from(finderPeople)
    .where(and(eq(finderPeople.id, r.subjectId), eq(finderPeople.workspaceId, job.workspaceId)));
  if (!person) return r.candidates;
  const found: string[] = [];
  for (const p of providers) {
    try {
      const hit = await p.findEmail?.({ ...person, domain: r.domain });
      if (hit?.email.endsWith(`@${r.domain}`) && !found.includes(hit.email)) found.push(hit.email);
    } catch (e) {
      ctx.log.warn("finder: an enrichment provider failed", { provider: p.name, error: (e as Error).message });
    }
  }
  return [...found, ...r.candidates.filter((c) => !found.includes(c))];
}
