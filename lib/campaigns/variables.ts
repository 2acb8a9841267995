import { asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, campaignSteps, leads, mailboxes } from "../../db/schema";
import { findMalformed, LEAD_VARIABLES, leadVariable, MAILBOX_VARIABLES, tokenNames, type RenderLead } from "../templates/render";

export const VARIABLES_CHECK_LIMIT = 5000;

export interface StepVariableReport {
  stepId: string;
  stepOrder: number;
  variantGroup: string | null;
  used: string[];
  unknown: { token: string; leads: number }[];
  empty: { token: string; leads: number }[];
  malformed: string[];
}

type CheckLead = RenderLead & { senderName: string | null };

/** The campaign's leads (first 5000) with their assigned mailbox's sender name. */
export async function campaignLeadsForCheck(db: DbOrTx, campaignId: string, limit = VARIABLES_CHECK_LIMIT) {
  const rows = await db
    .select({ lead: leads, senderName: mailboxes.senderName })
    .from(campaignLeads)
    .innerJoin(leads, eq(leads.id, campaignLeads.leadId))
    .leftJoin(mailboxes, eq(mailboxes.id, campaignLeads.mailboxId))
    .where(eq(campaignLeads.campaignId, campaignId))
    .orderBy(asc(campaignLeads.seq))
    .limit(limit + 1);
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(campaignLeads).where(eq(campaignLeads.campaignId, campaignId));
  return { leads: rows.slice(0, limit).map((r): CheckLead => ({ ...r.lead, senderName: r.senderName })), total: n };
}

/**
 * Every step against every lead: which tokens are used, which are unknown
 * (sent as raw text to every lead), which are empty for how many leads, and malformed text. A custom
 * field is known when any checked lead has it.
 */
export function checkVariables(
  steps: (typeof campaignSteps.$inferSelect)[],
  checkLeads: CheckLead[],
): { ok: boolean; steps: StepVariableReport[] } {
  const known = new Set<string>();
  for (const l of checkLeads) for (const k of Object.keys(l.customFields ?? {})) known.add(k);
  const builtin = new Set<string>([...LEAD_VARIABLES, ...MAILBOX_VARIABLES]);
  const reports = steps.map((s) => {
    const texts = [s.stepOrder === 0 ? (s.subject ?? "") : "", s.bodyTemplate, s.bodyHtmlTemplate ?? ""];
    const names = [...new Set(texts.flatMap(tokenNames))];
    const unknown = names.filter((n) => !builtin.has(n) && !known.has(n));
    const empty: { token: string; leads: number }[] = [];
    for (const n of names.filter((x) => !unknown.includes(x) && x !== "signature")) {
      const count = checkLeads.filter((l) => {
        const v =
          n === "senderName" ? l.senderName : (LEAD_VARIABLES as readonly string[]).includes(n) ? leadVariable(l, n) : l.customFields?.[n];
        return !v;
      }).length;
      if (count > 0) empty.push({ token: n, leads: count });
    }
    return {
      stepId: s.id,
      stepOrder: s.stepOrder,
      variantGroup: s.variantGroup || null,
      used: names.filter((n) => !unknown.includes(n)),
      unknown: unknown.map((token) => ({ token, leads: checkLeads.length })),
      empty,
      malformed: [...new Set(texts.flatMap(findMalformed))],
    };
  });
  return { ok: reports.every((r) => r.unknown.length === 0 && r.malformed.length === 0), steps: reports };
}

export async function stepsOf(db: DbOrTx, campaignId: string) {
  return db
    .select()
    .from(campaignSteps)
    .where(eq(campaignSteps.campaignId, campaignId))
    .orderBy(asc(campaignSteps.stepOrder), asc(campaignSteps.variantGroup));
}
