import { z } from "zod";
import { campaignStatsShape } from "../../analytics/schemas";
import { INTENTS } from "../../inbox/schemas";

/**
 * Response schemas shared by several contracts. They describe what the serializers return (the
 * OpenAPI document and a generated client read them); responses.test.ts parses real responses with them.
 */

/** A campaign's settings as returned (GET /campaigns/{id}/settings, and part of every campaign). */
export const campaignSettingsSchema = z.object({
  name: z.string(),
  folder: z.string().nullable(),
  sendWindowStartHour: z.number().int(),
  sendWindowEndHour: z.number().int(),
  sendDaysOfWeek: z.array(z.number().int()),
  startAt: z.string().nullable(),
  dailyNewLeadCap: z.number().int().nullable(),
  defaultTimezone: z.string().nullable(),
  abVariantOptimization: z.boolean(),
  trackOpens: z.boolean(),
  trackClicks: z.boolean(),
  stopOnReply: z.boolean(),
  stopOnAutoReply: z.boolean(),
  unsubscribeHeader: z.boolean(),
  textOnly: z.boolean(),
  espMatching: z.enum(["OFF", "PREFER", "STRICT"]),
  minGapMinutes: z.number(),
  skipHolidays: z.boolean(),
  blackoutDates: z.array(z.string()).describe("YYYY-MM-DD"),
  oooResume: z.boolean(),
  oooDefaultPauseDays: z.number().int(),
  trackingDomainId: z
    .string()
    .nullable()
    .describe("The campaign's own tracking domain (used while VERIFIED); null = the workspace's default"),
});

/** A campaign with its counts. */
export const campaignSchema = campaignSettingsSchema.extend({
  id: z.string().describe("`cmp_…`"),
  status: z.enum(["DRAFT", "ACTIVE", "PAUSED", "ARCHIVED"]),
  firstSentAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ...campaignStatsShape,
});

const launchEntry = z.object({
  code: z.string().describe("Launch check code"),
  message: z.string().describe("The problem and its fix"),
  count: z
    .number()
    .int()
    .optional()
    .describe(
      "How many: leads (EMPTY_VARIABLES), mailboxes (DOMAIN_NOT_AUTHENTICATED, MAILBOX_NOT_WARMED), matches (SPAM_WORDS), characters (TRACKED_SHORT_HTML)",
    ),
  stepId: z.string().optional().describe("The step the entry is about (EMPTY_VARIABLES, SPAM_WORDS, TRACKED_SHORT_HTML)"),
  mailboxIds: z
    .array(z.string())
    .optional()
    .describe("The pool mailboxes the entry is about (DOMAIN_NOT_AUTHENTICATED, MAILBOX_NOT_WARMED)"),
});
/** A report. */
export const launchReportSchema = z.object({ ready: z.boolean(), blockers: z.array(launchEntry), warnings: z.array(launchEntry) });

/** The answer of a DELETE of one record. */
export const deletedSchema = z.object({ deleted: z.literal(true), id: z.string() });

/** GET /campaigns/{id}/stats: the campaign counts and the per step × A/B variant results (rates over the variant's sends). */
export const campaignStatsResponseSchema = z.object({
  campaignId: z.string(),
  ...campaignStatsShape,
  variants: z.array(
    z.object({
      stepId: z.string(),
      stepOrder: z.number().int(),
      variantGroup: z.string().nullable(),
      sent: z.number().int(),
      opened: z.number().int(),
      clicked: z.number().int(),
      replied: z.number().int(),
      bounced: z.number().int(),
      openedRate: z.number(),
      clickedRate: z.number(),
      repliedRate: z.number(),
      bouncedRate: z.number(),
    }),
  ),
});

/** POST /campaigns/{id}/leads: one result per lead id sent, in order. */
export const addLeadsResponseSchema = z.object({
  results: z.array(
    z.object({
      leadId: z.string(),
      email: z.string().nullable(),
      result: z.enum(["assigned", "no_eligible_mailbox", "suppressed", "seg_blocked", "error"]),
      mailboxId: z.string().nullable(),
      error: z.string().optional(),
    }),
  ),
  added: z.number().int(),
});

/** Whom a WRONG_PERSON reply points to instead, read from its text: an address, a name or both, and the sentence. */
export const referralSchema = z
  .object({
    email: z.string().nullable().describe("The address the reply names, if any"),
    name: z.string().nullable().describe("The person's name the reply names, if any"),
    text: z.string().describe("The sentence the referral was read from"),
    leadId: z.string().nullable().describe("The lead the person became (added by hand or by an autonomous reply agent), else null"),
  })
  .nullable()
  .describe("Set on WRONG_PERSON replies that name someone else to write to; POST /replies/{id}/referral/add makes them a lead");

/** A received reply as GET /replies lists it; `from` is null on replies received before 1 Oct 2026 (when senders began to be recorded). */
export const replySchema = z.object({
  id: z.string().describe("`rep_…`"),
  leadId: z.string().nullable(),
  campaignId: z.string().nullable(),
  mailboxId: z.string(),
  subject: z.string(),
  rawBody: z.string().nullable(),
  intentClassification: z.enum(INTENTS),
  isAutoReply: z.boolean(),
  from: z.object({ name: z.string().nullable(), address: z.string() }).nullable(),
  receivedAt: z.string(),
  read: z.boolean(),
  remindAt: z.string().nullable(),
  starred: z.boolean(),
  returnDate: z.string().nullable().describe("YYYY-MM-DD: the day an out-of-office reply says its sender is back"),
  returnDateText: z.string().nullable().describe("The sentence the return date was read from"),
  referral: referralSchema,
});
