import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { type campaigns, type campaignSteps, domains, emails, trackingDomains } from "../../db/schema";
import { appUrl } from "../env";
import type { PoolMailbox } from "./eligibility";
import type { LaunchEntry } from "./launch-check";
import { scanSpamWords } from "./spam-words";
import type { checkVariables } from "./variables";

type Step = typeof campaignSteps.$inferSelect;
type Campaign = typeof campaigns.$inferSelect;

/**
 * Visible text below which an HTML email with the open pixel reads to spam filters as "mostly an image":
 * SpamAssassin's HTML_IMAGE_ONLY rules score an HTML part with an image and under 400, 800, … characters of
 * text, the shortest bands highest. 500 characters sits inside the 400–800 band those rules start from.
 */
export const TRACKED_HTML_MIN_TEXT = 500;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "step 2", "step 1 (variant B)", "a subsequence's step 1". */
export function stepLabel(s: Pick<Step, "stepOrder" | "variantGroup" | "subsequenceId">): string {
  const base = `step ${s.stepOrder + 1}${s.variantGroup ? ` (variant ${s.variantGroup})` : ""}`;
  return s.subsequenceId ? `subsequence ${base}` : base;
}

/** The text a reader sees in an HTML body: no markup, no style or script, entities decoded, spaces collapsed. */
export function visibleText(html: string): string {
  return html
    .replace(/<(style|script|head)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/gi, " ")
    .replace(/&(amp|lt|gt|quot|#39);/g, "x")
    .replace(/\s+/g, " ")
    .trim();
}

/** How each of SPF, DKIM and DMARC stands on a domain's latest stored check. */
function authGaps(d: typeof domains.$inferSelect): { unchecked: boolean; gaps: string[] } {
  const checks = [
    ["SPF", d.spfStatus],
    ["DKIM", d.dkimStatus],
    ["DMARC", d.dmarcStatus],
  ] as const;
  if (!d.lastCheckedAt || checks.every(([, s]) => s === "UNCHECKED")) return { unchecked: true, gaps: [] };
  const gaps = checks.flatMap(([name, s]) => {
    if (s === "MISSING") return [`no ${name} record`];
    if (s === "FAIL") return [`an invalid ${name} record`];
    if (s === "UNCHECKED") return [`${name} not checked`];
    return [];
  });
  return { unchecked: false, gaps };
}

/** One entry per sending domain of the pool that lacks SPF, DKIM or DMARC (or was never checked). */
async function domainWarnings(db: DbOrTx, pool: PoolMailbox[]): Promise<LaunchEntry[]> {
  const ids = [...new Set(pool.map((m) => m.domainId))];
  if (ids.length === 0) return [];
  const rows = await db.select().from(domains).where(inArray(domains.id, ids)).orderBy(domains.domain);
  const out: LaunchEntry[] = [];
  for (const d of rows) {
    const { unchecked, gaps } = authGaps(d);
    if (!unchecked && gaps.length === 0) continue;
    const mailboxIds = pool.filter((m) => m.domainId === d.id).map((m) => m.id);
    const problem = unchecked
      ? `${d.domain}: SPF, DKIM and DMARC not checked yet — run the domain check`
      : `${d.domain} has ${gaps.join(", ")}`;
    out.push({
      code: "DOMAIN_NOT_AUTHENTICATED",
      message:
        `${problem} (${plural(mailboxIds.length, "pool mailbox", "pool mailboxes")}). Gmail and Yahoo refuse bulk mail without all three. ` +
        "Fix: publish the records the Domains page shows for it, then run its check again.",
      count: mailboxIds.length,
      mailboxIds,
    });
  }
  return out;
}

/** Pool mailboxes with warmup off (and not marked warm) that have never sent an email. */
async function unwarmedWarning(db: DbOrTx, pool: PoolMailbox[]): Promise<LaunchEntry | null> {
  const cold = pool.filter((m) => m.warmupStatus === "OFF" && !m.assumedWarm);
  if (cold.length === 0) return null;
  const sent = await db
    .selectDistinct({ id: emails.mailboxId })
    .from(emails)
    .where(
      and(
        inArray(
          emails.mailboxId,
          cold.map((m) => m.id),
        ),
        sql`(${emails.sentAt} is not null or ${emails.status} = 'SENT')`,
      ),
    );
  const hasSent = new Set(sent.map((r) => r.id));
  const fresh = cold.filter((m) => !hasSent.has(m.id));
  if (fresh.length === 0) return null;
  const names = fresh
    .slice(0, 5)
    .map((m) => m.email)
    .join(", ");
  return {
    code: "MAILBOX_NOT_WARMED",
    message:
      `${plural(fresh.length, "pool mailbox", "pool mailboxes")} ${fresh.length === 1 ? "has" : "have"} warmup off and ` +
      `no sending history: ${names}${fresh.length > 5 ? ", …" : ""}. A new address sending cold email at once lands in spam. ` +
      "Fix: turn warmup on for it on the Mailboxes page and launch after a few weeks, or mark it warm if it already sends.",
    count: fresh.length,
    mailboxIds: fresh.map((m) => m.id),
  };
}

/** One entry per step and variable that renders empty for some of the checked leads. */
function emptyVariableWarnings(steps: Step[], vars: ReturnType<typeof checkVariables>, checked: number, total: number): LaunchEntry[] {
  const scope = total > checked ? ` (of the first ${checked} checked)` : "";
  const byId = new Map(steps.map((s) => [s.id, s]));
  return vars.steps.flatMap((r) => {
    const step = byId.get(r.stepId);
    if (!step) return [];
    return r.empty.map((e) => ({
      code: "EMPTY_VARIABLES",
      message:
        `{{${e.token}}} is empty for ${plural(e.leads, "lead")}${scope} in ${stepLabel(step)}: they would read a gap there. ` +
        `Fix: fill ${e.token} on those leads, or reword the step in the sequence editor so it reads well without it.`,
      count: e.leads,
      stepId: r.stepId,
    }));
  });
}

/** One entry per step whose subject or body uses words spam filters flag. */
function spamWordWarnings(steps: Step[]): LaunchEntry[] {
  return steps.flatMap((s) => {
    const matches = [
      ...scanSpamWords("subject", s.subject ?? ""),
      ...scanSpamWords("bodyTemplate", s.bodyTemplate),
      ...scanSpamWords("bodyHtmlTemplate", s.bodyHtmlTemplate ?? ""),
    ];
    if (matches.length === 0) return [];
    const words = [...new Set(matches.map((m) => m.word.toLowerCase()))];
    return [
      {
        code: "SPAM_WORDS",
        message:
          `${stepLabel(s)} uses ${plural(words.length, "word")} spam filters flag: "${words.join('", "')}". ` +
          "Fix: reword them in the sequence editor (its spam-word check highlights each).",
        count: matches.length,
        stepId: s.id,
      },
    ];
  });
}

/** Tracked links and pixel through the installation's own host: no verified tracking domain for this campaign. */
async function sharedTrackingWarning(db: DbOrTx, c: Campaign): Promise<LaunchEntry | null> {
  if (!c.trackOpens && !c.trackClicks) return null;
  const rows = await db
    .select()
    .from(trackingDomains)
    .where(
      and(
        eq(trackingDomains.workspaceId, c.workspaceId),
        c.trackingDomainId
          ? sql`(${trackingDomains.isDefault} or ${trackingDomains.id} = ${c.trackingDomainId})`
          : eq(trackingDomains.isDefault, true),
      ),
    );
  if (rows.some((r) => r.status === "VERIFIED" && (r.id === c.trackingDomainId || r.isDefault))) return null;
  const own = rows.find((r) => r.id === c.trackingDomainId);
  const what = [c.trackOpens ? "opens" : "", c.trackClicks ? "clicks" : ""].filter(Boolean).join(" and ");
  const why = own ? `its tracking domain ${own.domain} is not verified (${own.status}) and ` : "";
  return {
    code: "TRACKING_SHARED_DOMAIN",
    message:
      `The campaign tracks ${what}, but ${why}the workspace has no verified default tracking domain, so the pixel and links ` +
      `go through the shared host ${new URL(appUrl()).host}, whose reputation every sender on it shares. ` +
      "Fix: add a tracking domain (a CNAME on your own domain) in Settings → Tracking domains, verify it and make it the default.",
  };
}

/** Steps that go out as HTML with the open pixel and too little text beside it. */
function shortTrackedHtmlWarnings(c: Campaign, steps: Step[]): LaunchEntry[] {
  if (!c.trackOpens || c.textOnly) return [];
  return steps.flatMap((s) => {
    const chars = visibleText(s.bodyHtmlTemplate?.trim() ? s.bodyHtmlTemplate : s.bodyTemplate).length;
    if (chars >= TRACKED_HTML_MIN_TEXT) return [];
    return [
      {
        code: "TRACKED_SHORT_HTML",
        message:
          `${stepLabel(s)} has ${chars} characters of text beside the open-tracking pixel; under ${TRACKED_HTML_MIN_TEXT} ` +
          "spam filters read an HTML email as mostly an image. Fix: lengthen the step in the sequence editor, " +
          "or turn open tracking off in the campaign's settings.",
        count: chars,
        stepId: s.id,
      },
    ];
  });
}

export interface DeliverabilityInput {
  steps: Step[];
  pool: PoolMailbox[];
  vars: ReturnType<typeof checkVariables> | null;
  checkedLeads: number;
  leadCount: number;
}

/**
 * What hurts deliverability without stopping a launch: sending domains without SPF, DKIM or DMARC,
 * brand-new mailboxes with warmup off, variables empty for some leads, spam words, tracking through the
 * shared host, and tracked HTML steps too short for their pixel. Warnings only; none asks for a confirm.
 */
export async function deliverabilityWarnings(db: DbOrTx, c: Campaign, input: DeliverabilityInput): Promise<LaunchEntry[]> {
  const senders = input.pool.filter((m) => !m.isSeed);
  const [domainEntries, unwarmed, tracking] = await Promise.all([
    domainWarnings(db, senders),
    unwarmedWarning(db, senders),
    sharedTrackingWarning(db, c),
  ]);
  const sequence = input.steps;
  return [
    ...domainEntries,
    ...(unwarmed ? [unwarmed] : []),
    ...(input.vars && input.checkedLeads > 0 ? emptyVariableWarnings(sequence, input.vars, input.checkedLeads, input.leadCount) : []),
    ...spamWordWarnings(sequence),
    ...(tracking ? [tracking] : []),
    ...shortTrackedHtmlWarnings(c, sequence),
  ];
}
