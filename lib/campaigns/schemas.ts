import { z } from "zod";
import { pageQuery } from "../paging";
import { branchList } from "../sending/branches";
import { isValidTimezone } from "../timezones";

export const CAMPAIGN_STATUSES = ["DRAFT", "ACTIVE", "PAUSED", "ARCHIVED"] as const;

const hour = z.number().int();
/** Every campaign setting; all optional so that PATCH changes only what is sent. */
export const settingsShape = {
  name: z.string().trim().min(1, "name is required").max(200).optional(),
  folder: z.string().trim().max(100).nullable().optional().describe("Free-text group; empty or null = no folder"),
  sendWindowStartHour: hour.min(0).max(23).optional().describe("0–23, in the lead's timezone (else defaultTimezone)"),
  sendWindowEndHour: hour.min(1).max(24).optional().describe("1–24, exclusive"),
  sendDaysOfWeek: z
    .array(z.number().int().min(0, "days are 0 (Sunday) to 6").max(6, "days are 0 (Sunday) to 6"))
    .min(1, "at least one day")
    .max(7)
    .refine((d) => new Set(d).size === d.length, "each day once")
    .optional()
    .describe("0 = Sunday … 6 = Saturday"),
  startAt: z.iso.datetime({ offset: true, message: "startAt must be an ISO date-time with an offset" }).nullable().optional(),
  dailyNewLeadCap: z.number().int().min(1).max(100_000).nullable().optional(),
  defaultTimezone: z
    .string()
    .nullable()
    .optional()
    .refine((z) => z == null || isValidTimezone(z), "unknown timezone; use an IANA name from GET /timezones"),
  abVariantOptimization: z.boolean().optional(),
  trackOpens: z.boolean().optional(),
  trackClicks: z.boolean().optional(),
  stopOnReply: z.boolean().optional(),
  stopOnAutoReply: z.boolean().optional(),
  unsubscribeHeader: z.boolean().optional(),
  textOnly: z.boolean().optional(),
  espMatching: z.enum(["OFF", "PREFER", "STRICT"]).optional(),
  minGapMinutes: z.number().min(0).max(1440).optional(),
  skipHolidays: z
    .boolean()
    .optional()
    .describe("Send nothing on public holidays of each lead's country (its `country` field, else its timezone's)"),
  blackoutDates: z
    .array(z.iso.date("blackout dates are YYYY-MM-DD days"))
    .max(366, "at most 366 blackout dates")
    .transform((d) => [...new Set(d)].sort())
    .optional()
    .describe("YYYY-MM-DD days, in each lead's zone, on which nothing is sent"),
  oooResume: z.boolean().optional().describe("An out-of-office reply pauses the lead until the return date it names"),
  oooDefaultPauseDays: z.number().int().min(1).max(90).optional().describe("Days paused when an out-of-office reply names no date"),
  trackingDomainId: z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe(
      "One of the workspace's tracking domains for the open pixel, clicks and unsubscribe links (used while VERIFIED); null = the default",
    ),
};

const windowOk = (o: { sendWindowStartHour?: number; sendWindowEndHour?: number }) =>
  o.sendWindowStartHour === undefined || o.sendWindowEndHour === undefined || o.sendWindowStartHour < o.sendWindowEndHour;
const WINDOW_MSG = { message: "sendWindowStartHour must be before sendWindowEndHour", path: ["sendWindowEndHour"] };

export const createCampaignBody = z
  .object({ ...settingsShape, name: z.string().trim().min(1, "name is required").max(200) })
  .refine(windowOk, WINDOW_MSG);
export const patchSettingsBody = z
  .object(settingsShape)
  .refine(windowOk, WINDOW_MSG)
  .refine((o) => Object.keys(o).length > 0, "send at least one setting");
export type SettingsInput = z.infer<typeof patchSettingsBody>;

export const listCampaignsQuery = pageQuery({ defaultLimit: 500, maxLimit: 500 }).extend({
  q: z.string().max(200).optional().describe("Name contains"),
  folder: z.string().max(100).optional().describe("Exact folder; empty = campaigns without a folder"),
  status: z
    .string()
    .optional()
    .refine(
      (s) => !s || s.split(",").every((x) => (CAMPAIGN_STATUSES as readonly string[]).includes(x.trim())),
      "status is a comma list of DRAFT, ACTIVE, PAUSED, ARCHIVED",
    )
    .describe("Comma list"),
});

export const statusBody = z.object({ status: z.enum(["ACTIVE", "PAUSED", "ARCHIVED"]), confirm: z.boolean().optional() });
export const deleteQuery = z.object({ deleteLeads: z.enum(["true", "false"]).optional() });
export const duplicateBody = z.object({
  name: z.string().trim().min(1).max(200),
  folder: z.string().trim().max(100).nullable().optional(),
  includeMailboxPool: z.boolean().default(true),
});
export const bulkSettingsBody = z.object({
  campaignIds: z.array(z.string().max(100)).min(1).max(500, "at most 500 campaigns per call"),
  settings: z.object(settingsShape).refine((o) => Object.keys(o).length > 0, "send at least one setting"),
});
export const campaignIdsBody = z.object({ campaignIds: z.array(z.string().max(100)).min(1).max(500) });

// Steps
export const stepFields = {
  stepOrder: z.number().int().min(0).max(100),
  variantGroup: z.string().trim().max(20).nullable().optional(),
  subject: z.string().max(998).nullable().optional(),
  bodyTemplate: z.string().max(100_000),
  bodyHtmlTemplate: z.string().max(500_000).nullable().optional(),
  delayHoursAfterPrevious: z.number().min(0).max(8760).nullable().optional().describe("Fractional hours allowed"),
  branches: branchList
    .optional()
    .describe(
      "Rules read in order once the step is sent: `[{ when, action }]` (docs/sequences.md); none = a reply stops, silence moves on",
    ),
};
const subsequenceField = z
  .string()
  .max(100)
  .nullable()
  .optional()
  .describe("The subsequence the step belongs to (`sub_…`); absent or null = the main sequence");
export const createStepBody = z.object({ ...stepFields, stepOrder: stepFields.stepOrder.optional(), subsequenceId: subsequenceField });
export const patchStepBody = z
  .object({ ...stepFields, stepOrder: stepFields.stepOrder.optional(), bodyTemplate: stepFields.bodyTemplate.optional() })
  .refine((o) => Object.keys(o).length > 0, "send at least one field");
export const putStepsBody = z.object({ subsequenceId: subsequenceField, steps: z.array(z.object(stepFields)).max(100) });
export const listStepsQuery = z.object({
  subsequenceId: z.string().max(100).optional().describe("A subsequence's steps; absent = the main sequence"),
});
export const subsequenceBody = z.object({
  name: z.string().trim().min(1, "name is required").max(200),
  threading: z
    .enum(["same", "new"])
    .default("same")
    .describe("`same`: its emails continue the lead's thread (Re: + the first subject); `new`: a thread of its own"),
});
export const patchSubsequenceBody = z
  .object({ name: subsequenceBody.shape.name.optional(), threading: z.enum(["same", "new"]).optional() })
  .refine((o) => Object.keys(o).length > 0, "send at least one field");

export const attachmentBody = z.union([
  z.object({
    filename: z.string().trim().min(1).max(255),
    contentType: z.string().trim().min(1).max(255),
    contentBase64: z.string().min(1),
    inline: z.boolean().default(false),
  }),
  z.object({ fromAttachmentId: z.string().max(100), filename: z.string().trim().min(1).max(255).optional() }),
]);

export const previewBody = z
  .object({
    stepId: z
      .string()
      .max(100)
      .optional()
      .describe("A saved step, rendered as saved; with bodyTemplate, that step's unsaved draft (spintax chosen as for the step)"),
    subject: z.string().max(998).nullable().optional(),
    bodyTemplate: z.string().max(100_000).optional(),
    bodyHtmlTemplate: z.string().max(500_000).nullable().optional(),
    stepOrder: z.number().int().min(0).optional(),
    leadId: z.string().max(100).optional(),
    mailboxId: z.string().max(100).optional(),
    spinIndex: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe("0 (default): the spintax choices this lead receives; 1, 2 …: the other choices in turn"),
  })
  .refine((o) => o.stepId || o.bodyTemplate !== undefined, "send stepId, or subject + bodyTemplate for a draft");

export const stepTestSendBody = z.object({
  to: z.email("to must be an email address"),
  leadId: z.string().max(100).optional(),
  mailboxId: z.string().max(100).optional(),
});

// Campaign leads and pool
export const addLeadsBody = z.object({ leadIds: z.array(z.string().max(100)).min(1).max(1000, "at most 1,000 leads per call") });
export const listCampaignLeadsQuery = pageQuery({ defaultLimit: 100, maxLimit: 1000 });
export const removeLeadsBody = z.object({ leadIds: z.array(z.string().max(100)).min(1).max(5000, "at most 5,000 leads per call") });
export const reassignBody = z
  .object({ leadIds: z.array(z.string().max(100)).max(1000, "at most 1,000 leads per call").optional(), all: z.boolean().optional() })
  .refine((o) => o.all === true || (o.leadIds?.length ?? 0) > 0, "send leadIds or all: true");
export const poolPutBody = z.object({ mailboxIds: z.array(z.string().max(100)).max(10_000) });
export const poolRemoveBody = z.object({ mailboxIds: z.array(z.string().max(100)).min(1).max(10_000) });
export const poolSelectBody = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("manual"), mailboxIds: z.array(z.string().max(100)).min(1).max(10_000) }),
  z.object({ mode: z.literal("tag"), tagIds: z.array(z.string().max(100)).min(1).max(100) }),
  z.object({
    mode: z.literal("random"),
    count: z.number().int().min(1).max(10_000),
    tagIds: z.array(z.string().max(100)).max(100).optional(),
  }),
]);
