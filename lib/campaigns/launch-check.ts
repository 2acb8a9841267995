import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, type campaigns } from "../../db/schema";
import { canSend, isWarming, poolMailboxes } from "./eligibility";
import { spamClasses, spamFor } from "./placement-spam";
import { deliverabilityWarnings } from "./launch-deliverability";
import { describeSkipped, skippedDays } from "./skipped-days";
import { campaignLeadsForCheck, checkVariables, stepsOf } from "./variables";

export interface LaunchEntry {
  code: string;
  message: string;
  /** How many: leads (EMPTY_VARIABLES), mailboxes (DOMAIN_NOT_AUTHENTICATED, MAILBOX_NOT_WARMED), matches (SPAM_WORDS), characters (TRACKED_SHORT_HTML). */
  count?: number;
  /** The step the entry is about. */
  stepId?: string;
  /** The pool mailboxes the entry is about. */
  mailboxIds?: string[];
}
export interface LaunchReport {
  ready: boolean;
  blockers: LaunchEntry[];
  warnings: LaunchEntry[];
}

const plural = (n: number, one: string, many = one + "s") => `${n} ${n === 1 ? one : many}`;

/** GET /campaigns/<id>/launch-check: the blockers and warnings a launch would meet. */
export async function launchReport(db: DbOrTx, campaign: typeof campaigns.$inferSelect, now: Date): Promise<LaunchReport> {
  const blockers: LaunchEntry[] = [];
  const warnings: LaunchEntry[] = [];
  const [steps, pool, { leads: checkLeads, total: leadCount }] = await Promise.all([
    stepsOf(db, campaign.id),
    poolMailboxes(db, campaign.id),
    campaignLeadsForCheck(db, campaign.id),
  ]);

  if (steps.length === 0) blockers.push({ code: "NO_STEPS", message: "The campaign has no steps: add at least the first email." });
  if (leadCount === 0) blockers.push({ code: "NO_LEADS", message: "The campaign has no leads: add leads to send to." });
  const sendable = pool.filter(canSend);
  if (sendable.length === 0) {
    blockers.push({
      code: "NO_ELIGIBLE_MAILBOX",
      message:
        pool.length === 0
          ? "The mailbox pool is empty: add mailboxes to send from."
          : "No mailbox in the pool can send (each is paused, auto-paused or failing to log in).",
    });
  }
  const vars = steps.length > 0 ? checkVariables(steps, checkLeads) : null;
  const tokens = vars && templateBlocker(vars);
  if (tokens) blockers.push(tokens);
  const warming = pool.filter((m) => canSend(m) && isWarming(m));
  if (warming.length)
    warnings.push({ code: "WARMING_MAILBOXES", message: `${mailboxList(warming)} still in early warmup: ${firstFive(warming)}.` });
  if (campaign.espMatching === "PREFER") {
    const spam = await spamClasses(
      db,
      sendable.map((m) => m.id),
    );
    const inSpam = sendable.filter((m) => spam.has(m.id));
    if (inSpam.length)
      warnings.push({
        code: "PLACEMENT_SPAM",
        message:
          `${mailboxList(inSpam)} landed in spam in the latest placement test: ` +
          `${inSpam
            .slice(0, 5)
            .map((m) => `${m.email} (${spamFor(spam, m.id).join(", ")})`)
            .join(", ")}. ` +
          "They get no leads of those providers in this campaign until a later test is clean.",
      });
  }
  const cannot = pool.filter((m) => !canSend(m));
  if (cannot.length && sendable.length)
    warnings.push({ code: "MAILBOXES_CANNOT_SEND", message: `${mailboxList(cannot)} cannot send yet: ${firstFive(cannot)}.` });
  const unplaced = leadCount > 0 ? await leadsWithoutMailbox(db, campaign.id, cannot) : null;
  if (unplaced) warnings.push(unplaced);
  if (!campaign.defaultTimezone) {
    const noTz = checkLeads.filter((l) => !l.timezone).length;
    if (noTz > 0 || leadCount === 0)
      warnings.push({
        code: "NO_TIMEZONE",
        message:
          `No default timezone is set${noTz ? ` and ${plural(noTz, "lead")} have none` : ""}: ` + "those leads can be emailed at any hour.",
      });
  }
  if (campaign.startAt && campaign.startAt > now)
    warnings.push({ code: "SCHEDULED_START", message: `Sending starts at ${campaign.startAt.toISOString()}.` });
  const skipped = skippedSoon(campaign, checkLeads, now);
  if (skipped) warnings.push(skipped);
  warnings.push(...(await deliverabilityWarnings(db, campaign, { steps, pool, vars, checkedLeads: checkLeads.length, leadCount })));
  return { ready: blockers.length === 0, blockers, warnings };
}

/** Days looked ahead for blackout dates and holidays the launch should know about. */
const SKIP_HORIZON_DAYS = 14;

/** Blackout dates and the checked leads' countries' public holidays in the next two weeks. */
function skippedSoon(c: typeof campaigns.$inferSelect, checkLeads: Parameters<typeof skippedDays>[1], now: Date): LaunchEntry | null {
  const from = (c.startAt && c.startAt > now ? c.startAt : now).toISOString().slice(0, 10);
  const to = new Date(Date.parse(from) + (SKIP_HORIZON_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const message = describeSkipped(skippedDays(c, checkLeads, from, to), SKIP_HORIZON_DAYS);
  return message ? { code: "SKIPPED_DAYS", message } : null;
}

const mailboxList = (ms: unknown[]) => plural(ms.length, "pool mailbox", "pool mailboxes");
const firstFive = (ms: { email: string }[]) =>
  ms
    .slice(0, 5)
    .map((m) => m.email)
    .join(", ");

/** Steps whose tokens would reach leads as raw text (unknown or malformed) block the launch. */
function templateBlocker(vars: ReturnType<typeof checkVariables>): LaunchEntry | null {
  if (vars.ok) return null;
  const unknown = [...new Set(vars.steps.flatMap((s) => s.unknown.map((u) => `{{${u.token}}}`)))];
  const malformed = [...new Set(vars.steps.flatMap((s) => s.malformed))];
  const parts = [
    unknown.length ? `unknown ${unknown.join(", ")}` : "",
    malformed.length ? `malformed "${malformed.join('", "')}"` : "",
  ].filter(Boolean);
  return {
    code: "TEMPLATE_TOKENS",
    message: `Leads would receive raw template text: ${parts.join("; ")}. Fix the steps (see variables-check).`,
  };
}

/** Leads that cannot send yet: no mailbox, or one that cannot send (paused, auto-paused, failing to log in). */
async function leadsWithoutMailbox(db: DbOrTx, campaignId: string, cannot: { id: string }[]): Promise<LaunchEntry | null> {
  const blocked = cannot.map((m) => m.id);
  const [{ unassigned, stuck }] = await db
    .select({
      unassigned: sql<number>`count(*) filter (where ${campaignLeads.mailboxId} is null)::int`,
      stuck: blocked.length ? sql<number>`count(*) filter (where ${inArray(campaignLeads.mailboxId, blocked)})::int` : sql<number>`0`,
    })
    .from(campaignLeads)
    .where(and(eq(campaignLeads.campaignId, campaignId), eq(campaignLeads.status, "ACTIVE")));
  if (unassigned === 0 && stuck === 0) return null;
  const parts = [
    unassigned ? `${plural(unassigned, "lead")} ${unassigned === 1 ? "has" : "have"} no mailbox yet` : "",
    stuck ? `${plural(stuck, "lead")} ${stuck === 1 ? "is" : "are"} on a mailbox that cannot send` : "",
  ].filter(Boolean);
  return { code: "LEADS_WITHOUT_MAILBOX", message: `${parts.join(" and ")}; reassign them once the pool can take them.` };
}

/** What `PATCH /status` ACTIVE needs `confirm: true` for: any blocker, or warming mailboxes. */
export function needsConfirmation(r: LaunchReport): boolean {
  return r.blockers.length > 0 || r.warnings.some((w) => w.code === "WARMING_MAILBOXES");
}
