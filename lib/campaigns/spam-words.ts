import { requireAccess, type Ctx } from "../ctx";
import { findCampaign } from "./campaigns";
import { stepsOf } from "./variables";

/**
 * Words and phrases that spam filters and recipients treat as red flags in cold email, grouped so a
 * match can say why. Kept in the repository and reviewed like code.
 */
export const SPAM_WORDS: Record<string, string[]> = {
  urgency: [
    "act now",
    "apply now",
    "call now",
    "do it today",
    "don't delete",
    "don't hesitate",
    "exclusive deal",
    "expires today",
    "final call",
    "hurry",
    "immediately",
    "instant",
    "limited time",
    "last chance",
    "now only",
    "offer expires",
    "once in a lifetime",
    "only a few left",
    "order now",
    "urgent",
    "while supplies last",
    "what are you waiting for",
    "time limited",
    "this won't last",
    "get it now",
  ],
  money: [
    "100% free",
    "$$$",
    "additional income",
    "best price",
    "big bucks",
    "cash bonus",
    "cheap",
    "double your",
    "earn extra",
    "earn money",
    "extra cash",
    "fast cash",
    "financial freedom",
    "free money",
    "get paid",
    "income from home",
    "make money",
    "million dollars",
    "money back",
    "no cost",
    "no fees",
    "prize",
    "pure profit",
    "risk-free",
    "save big",
    "serious cash",
    "unsecured credit",
    "lowest price",
    "discount",
    "free gift",
  ],
  shady: [
    "no obligation",
    "not spam",
    "this is not spam",
    "no strings attached",
    "winner",
    "you have been selected",
    "congratulations",
    "click here",
    "click below",
    "dear friend",
    "hidden charges",
    "meet singles",
    "miracle",
    "no catch",
    "no credit check",
    "password",
    "verify your account",
    "wire transfer",
    "account suspended",
    "confidential",
    "unsubscribe here",
    "remove me",
    "bitcoin",
    "crypto",
    "investment opportunity",
  ],
  overpromise: [
    "100% guaranteed",
    "amazing",
    "best ever",
    "guaranteed",
    "increase sales",
    "increase traffic",
    "incredible deal",
    "lose weight",
    "no risk",
    "one hundred percent",
    "revolutionary",
    "satisfaction guaranteed",
    "the best rates",
    "unbeatable",
    "while you sleep",
    "work from home",
    "you won't believe",
    "10x",
    "skyrocket",
    "game changer",
    "secret",
    "free trial",
    "free consultation",
    "no questions asked",
  ],
};

const ENTRIES = Object.entries(SPAM_WORDS).flatMap(([category, words]) =>
  words.map((word) => ({ word, category, re: new RegExp(`(?<![\\w$])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w$])`, "gi") })),
);

export interface SpamMatch {
  field: "subject" | "bodyTemplate" | "bodyHtmlTemplate";
  word: string;
  category: string;
  index: number;
  length: number;
}

export function scanSpamWords(field: SpamMatch["field"], text: string): SpamMatch[] {
  // Markup is not read by people: look at the text of an HTML body only, keeping positions.
  const visible = field === "bodyHtmlTemplate" ? text.replace(/<[^>]*>/g, (m) => " ".repeat(m.length)) : text;
  const out: SpamMatch[] = [];
  for (const e of ENTRIES)
    for (const m of visible.matchAll(e.re)) out.push({ field, word: e.word, category: e.category, index: m.index!, length: m[0].length });
  return out.sort((a, b) => a.index - b.index);
}

/** POST /campaigns/<id>/check-spam-words: every step, every field, with positions for highlighting. */
export async function checkSpamWords(ctx: Ctx, campaignId: string) {
  requireAccess(ctx, "read");
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const steps = await stepsOf(ctx.db, campaignId);
  const report = steps.map((s) => {
    const matches = [
      ...scanSpamWords("subject", s.subject ?? ""),
      ...scanSpamWords("bodyTemplate", s.bodyTemplate),
      ...scanSpamWords("bodyHtmlTemplate", s.bodyHtmlTemplate ?? ""),
    ];
    return { stepId: s.id, stepOrder: s.stepOrder, variantGroup: s.variantGroup || null, matches };
  });
  const total = report.reduce((n, s) => n + s.matches.length, 0);
  return { ok: total === 0, total, steps: report };
}
