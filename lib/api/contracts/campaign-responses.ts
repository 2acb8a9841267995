import { z } from "zod";
import { campaignLeadStatusEnum, warmupStatusEnum } from "../../../db/schema";
import { leadSchema } from "../../leads/schemas";
import { HEALTH_STATUSES } from "../../mailboxes/schemas";
import { branchList } from "../../sending/branches";
import { campaignSettingsSchema, campaignStatsResponseSchema } from "./responses";

/**
 * Response schemas of the campaign routes (campaigns.ts, campaign-leads.ts): what their serializers
 * return, field for field (test/conformance.ts checks every answer a route test sees against them).
 */

const int = () => z.number().int();
const counted = (key: string) => z.object({ [key]: int(), notFound: z.array(z.string()) });

export const campaignDeletedSchema = z.object({ deleted: z.boolean(), id: z.string(), leadsDeleted: int(), leadsKept: int() });
export const deletePreviewSchema = z.object({ leadsOnlyHere: int(), leadsInOtherCampaigns: int(), sends: int(), replies: int() });
export const bulkSettingsResultSchema = z.object({
  updated: int(),
  updatedIds: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), error: z.string() })),
  notFound: z.array(z.string()),
});
export const bulkArchiveResultSchema = counted("archived");

const dayCounts = { sent: int(), opened: int(), clicked: int(), replied: int(), positive: int(), bounced: int() };
export const timeseriesSchema = z.object({
  campaignId: z.string(),
  days: int(),
  series: z.array(z.object({ date: z.string().describe("YYYY-MM-DD"), ...dayCounts })),
});
export const sentTrendsSchema = z.object({
  dates: z.array(z.string()),
  trends: z.record(z.string(), z.array(z.number())).describe("Sends per day for each campaign id, aligned with `dates`"),
});

const perDay = { date: z.string(), firstEmails: int(), followUps: int() };
export const scheduleSchema = z.object({
  campaignId: z.string(),
  from: z.string(),
  days: int(),
  totals: z.array(z.object(perDay)),
  mailboxes: z.array(z.object({ mailboxId: z.string(), email: z.string(), dailySendCap: int(), perDay: z.array(z.object(perDay)) })),
  upcoming: z.array(z.object({ leadId: z.string(), email: z.string(), stepOrder: int(), at: z.string(), mailboxEmail: z.string() })),
  skippedDays: z
    .object({
      blackout: z.array(z.string()).describe("The campaign's blackout dates among the forecast's days"),
      holidays: z.array(
        z.object({
          country: z.string().describe("ISO 3166-1 alpha-2"),
          leads: int().describe("Active leads of that country"),
          days: z.array(z.object({ date: z.string(), name: z.string() })),
        }),
      ),
    })
    .describe("Days on which nothing is sent: blackout dates for everyone, public holidays per lead country (with skipHolidays)"),
  notes: z.array(z.string()),
});

export const activityEmailSchema = z.object({
  id: z.string(),
  leadId: z.string().nullable(),
  leadEmail: z.string(),
  stepOrder: int().nullable(),
  variantGroup: z.string().nullable(),
  mailboxEmail: z.string(),
  subject: z.string(),
  status: z.string(),
  bounceType: z.string().nullable(),
  smtpCode: z.string().nullable(),
  smtpResponse: z.string().nullable(),
  createdAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  openedAt: z.string().nullable(),
  clickedAt: z.string().nullable(),
});

const stepRef = { stepId: z.string(), stepOrder: int(), variantGroup: z.string().nullable() };
export const spamWordsSchema = z.object({
  ok: z.boolean(),
  total: int(),
  steps: z.array(
    z.object({
      ...stepRef,
      matches: z.array(
        z.object({
          field: z.enum(["subject", "bodyTemplate", "bodyHtmlTemplate"]),
          word: z.string(),
          category: z.string(),
          index: int(),
          length: int(),
        }),
      ),
    }),
  ),
  rspamd: z
    .object({
      error: z
        .string()
        .nullable()
        .describe("Why rspamd could not score (unreachable, timed out, refused); null when every step was scored"),
      steps: z.array(
        z.object({
          ...stepRef,
          score: z.number(),
          action: z.string().describe("rspamd's action at that score: no action, add header, rewrite subject, reject …"),
          symbols: z.array(z.object({ name: z.string(), score: z.number(), description: z.string().nullable() })),
        }),
      ),
    })
    .nullable()
    .optional()
    .describe("Each step rendered for the sample lead and scored by the installation's rspamd (RSPAMD_URL); null when it has none"),
});
const tokenLeads = z.object({ token: z.string(), leads: int() });
export const variablesCheckSchema = z.object({
  ok: z.boolean(),
  leadsChecked: int(),
  totalLeads: int(),
  truncated: z.boolean(),
  steps: z.array(
    z.object({
      ...stepRef,
      used: z.array(z.string()),
      unknown: z.array(tokenLeads),
      empty: z.array(tokenLeads),
      malformed: z.array(z.string()),
    }),
  ),
});

/** One sequence step. */
export const stepSchema = z.object({
  id: z.string().describe("`stp_…`"),
  campaignId: z.string(),
  stepOrder: int(),
  variantGroup: z.string().nullable(),
  subject: z.string().nullable(),
  bodyTemplate: z.string(),
  bodyHtmlTemplate: z.string().nullable(),
  delayHoursAfterPrevious: z.number().nullable(),
  subsequenceId: z.string().nullable().describe("null: the main sequence"),
  branches: branchList,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const subsequenceSchema = z.object({
  id: z.string().describe("`sub_…`"),
  campaignId: z.string(),
  name: z.string(),
  threading: z.enum(["same", "new"]),
  steps: z.array(z.object({ id: z.string(), stepOrder: int(), variantGroup: z.string().nullable(), subject: z.string().nullable() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const subsequencesSchema = z.object({ subsequences: z.array(subsequenceSchema) });
export const stepsSchema = z.object({ steps: z.array(stepSchema) });
export const putStepsResultSchema = z.object({ created: int(), updated: int(), deleted: int(), steps: z.array(stepSchema) });

const idEmail = z.object({ id: z.string(), email: z.string() });
export const previewSchema = z.object({
  lead: idEmail.nullable(),
  mailbox: idEmail.nullable(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  signature: z.enum(["at_token", "appended_at_bottom", "none"]),
  variables: z.object({
    used: z.array(z.string()),
    unknown: z.array(z.string()),
    malformed: z.array(z.string()),
    empty: z.array(z.string()),
  }),
  spintax: z
    .object({
      groups: int().describe("Spintax groups ({a|b|c}) in the step's subject and bodies"),
      choices: int().describe("Spin indexes 0 … choices − 1 show every choice of every group (spinIndex)"),
    })
    .describe("Spintax of the step: this preview shows the lead's own choices at spinIndex 0"),
  notes: z.array(z.string()),
});
export const stepTestSendSchema = z.object({
  sent: z.boolean(),
  messageId: z.string(),
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  lead: idEmail.nullable(),
});

export const attachmentSchema = z.object({
  id: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: int(),
  cid: z.string().nullable(),
  inline: z.boolean(),
});
export const attachmentsSchema = z.object({
  attachments: z.array(
    attachmentSchema.extend({ dataBase64: z.string().optional().describe("Inline images only: the bytes, for the editor") }),
  ),
});

/** A lead in a campaign: the lead with its place in the sequence. */
export const campaignLeadSchema = leadSchema.extend({
  leadId: z.string(),
  mailboxId: z.string().nullable(),
  mailboxEmail: z.string().nullable(),
  campaignStatus: z.enum(campaignLeadStatusEnum.enumValues),
  nextStepOrder: int(),
  nextSendAt: z.string().nullable(),
  sequence: z.string().describe("`main`, or the id of the subsequence the lead is in"),
  pausedUntil: z.string().nullable().describe("Nothing is sent before this moment (an out-of-office reply or a wait branch)"),
  pauseReason: z.string().nullable().describe("`out_of_office` or `wait`"),
  firstEmailedAt: z.string().nullable(),
  addedAt: z.string(),
});
export const removeLeadSchema = z.object({ removed: z.boolean(), leadId: z.string() });
export const removeLeadsSchema = z.object({ removed: int(), notInCampaign: z.array(z.string()) });
export const reassignSchema = z.object({
  reassigned: int(),
  leftUnassigned: int(),
  skippedAlreadyEmailed: int(),
  unchanged: int(),
  notInCampaign: z.array(z.string()),
  more: z.boolean().describe("More leads are left to move: call again"),
});

export const poolSchema = z.object({
  poolSize: int(),
  activelySending: int(),
  mailboxes: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      senderName: z.string().nullable(),
      healthStatus: z.enum(HEALTH_STATUSES),
      warmupStatus: z.enum(warmupStatusEnum.enumValues),
      dailySendCap: int(),
      canSend: z.boolean(),
      assignedLeads: int(),
      activelySending: z.boolean(),
      spamFor: z.array(z.string()),
    }),
  ),
  leadsOutsidePool: int(),
});
export const poolChangeSchema = z.object({
  poolSize: int(),
  added: int(),
  removed: int(),
  notFound: z.array(z.string()),
  leadsOutsidePool: int(),
});
export const poolRemoveSchema = z.object({ removed: int(), notInPool: z.array(z.string()), poolSize: int(), leadsOutsidePool: int() });

/** GET /campaigns/{id}/settings: the settings with the campaign's id and status. */
export const campaignSettingsViewSchema = campaignSettingsSchema.extend({
  id: z.string(),
  status: z.enum(["DRAFT", "ACTIVE", "PAUSED", "ARCHIVED"]),
});

/** GET /campaigns/{id}/stats: the counts, per step × variant (each in its sequence), per subsequence and per branch taken. */
export const campaignStatsWithSequencesSchema = campaignStatsResponseSchema.extend({
  variants: z.array(campaignStatsResponseSchema.shape.variants.element.extend({ subsequenceId: z.string().nullable() })),
  subsequences: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      entered: int().describe("Leads a branch moved into it"),
      sent: int(),
      replied: int(),
      positive: int(),
    }),
  ),
  branches: z.array(
    z.object({
      stepId: z.string(),
      ruleIndex: int().nullable().describe("The rule's place in the step's branches; null: no rule matched (the default)"),
      rule: z.string(),
      action: z.string(),
      taken: int(),
    }),
  ),
});
