import { z } from "zod";
import { pageQuery } from "../paging";

/** Everything that can happen to a lead, as its timeline names it (docs/leads.md describes each). */
export const TIMELINE_KINDS = [
  "sent",
  "opened",
  "clicked",
  "replied",
  "bounced",
  "unsubscribed",
  "campaign_added",
  "campaign_removed",
  "tagged",
  "untagged",
  "suppressed",
  "branched",
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const timelineQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 });
export type TimelineQuery = z.infer<typeof timelineQuery>;

const ref = z.object({
  id: z.string(),
  name: z.string().nullable().describe("null when the campaign was deleted and its name is not kept"),
});

/** The facts of one event; which fields are there depends on the kind. */
export const timelineDetail = z.object({
  emailId: z.string().optional().describe("sent, opened, clicked, bounced, unsubscribed (link): the campaign email"),
  subject: z.string().optional().describe("sent, bounced, opened, clicked: the email's subject; replied: the reply's"),
  mailbox: z.object({ id: z.string(), email: z.string() }).optional().describe("sent, bounced: the sending mailbox"),
  url: z.string().optional().describe("clicked: the link followed"),
  replyId: z.string().optional().describe("replied, unsubscribed (reply)"),
  intent: z.string().optional().describe("replied: the reply's intent classification"),
  automatic: z.boolean().optional().describe("replied: an automatic reply (out of office …)"),
  snippet: z.string().optional().describe("replied: the start of the reply's new text"),
  bounceType: z.enum(["hard", "soft"]).optional().describe("bounced"),
  code: z.string().nullable().optional().describe("bounced: the server's status code"),
  reason: z
    .string()
    .nullable()
    .optional()
    .describe("bounced: the server's answer; suppressed: why it was listed; removals: removed, campaign_deleted, tag_deleted"),
  source: z.enum(["link", "reply"]).optional().describe("unsubscribed: the unsubscribe link (one-click) or a reply asking to be removed"),
  entry: z
    .object({ id: z.string(), kind: z.enum(["email", "domain"]), value: z.string() })
    .optional()
    .describe("suppressed: the suppression-list entry (the address, or the whole domain)"),
  tag: z.object({ id: z.string(), name: z.string(), color: z.string().nullable().optional() }).optional().describe("tagged, untagged"),
  status: z.string().optional().describe("campaign_added: the lead's status in the campaign now"),
  rule: z.unknown().optional().describe("branched: the rule that matched"),
  action: z.unknown().optional().describe("branched: what the branch did"),
});
export type TimelineDetail = z.infer<typeof timelineDetail>;

export const timelineEvent = z.object({
  at: z.string().describe("When it happened (ISO 8601)"),
  kind: z.enum(TIMELINE_KINDS),
  campaign: ref.optional(),
  step: z.object({ id: z.string(), order: z.number().int(), variant: z.string().optional().describe("A/B variant label") }).optional(),
  detail: timelineDetail,
});
export type TimelineEvent = z.infer<typeof timelineEvent>;

export const timelineResponse = z.object({
  events: z.array(timelineEvent),
  page: z.number(),
  limit: z.number(),
  total: z.number(),
});

/** A campaign the lead is in, with where the lead stands in it. */
export const leadCampaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(["DRAFT", "ACTIVE", "PAUSED", "ARCHIVED"]).describe("The campaign's status"),
  leadStatus: z.enum(["ACTIVE", "COMPLETED", "REPLIED", "BOUNCED", "UNSUBSCRIBED", "STOPPED"]).describe("The lead's status in it"),
  mailbox: z.object({ id: z.string(), email: z.string() }).nullable().describe("The assigned sending mailbox (null: unassigned)"),
  nextStepOrder: z.number().int(),
  nextSendAt: z.string().nullable(),
  addedAt: z.string(),
  firstEmailedAt: z.string().nullable(),
  lastEmailedAt: z.string().nullable(),
  subsequence: z
    .object({ id: z.string(), name: z.string() })
    .nullable()
    .describe("The subsequence the lead is in (null: the main sequence)"),
  pausedUntil: z.string().nullable().describe("Nothing is sent before this moment"),
  pauseReason: z.string().nullable().describe("`out_of_office` or `wait`"),
  waitingOnBranch: z.boolean().describe("Its last step's branch rules are not decided yet (a reply or the step's delay decides)"),
  lastBranch: z
    .object({ rule: z.string(), action: z.object({ type: z.string() }).catchall(z.unknown()), at: z.string() })
    .nullable()
    .describe("The latest branch the lead took here: the rule in words and the action"),
});
export type LeadCampaign = z.infer<typeof leadCampaignSchema>;

export const bulkTagBody = z
  .object({
    leadIds: z.array(z.string().max(100)).min(1, "select at least one lead").max(1000, "at most 1,000 ids per call"),
    tagId: z.string().max(100).optional(),
    name: z.string().trim().min(1).max(100).optional().describe("A tag by name (created if new), instead of tagId"),
  })
  .refine((o) => o.tagId || o.name, { message: "send tagId or name", path: ["tagId"] });

export const bulkUntagBody = z.object({
  leadIds: z.array(z.string().max(100)).min(1, "select at least one lead").max(1000, "at most 1,000 ids per call"),
  tagId: z.string().max(100),
});

const int = () => z.number().int();
export const bulkTagResult = z.object({
  tag: z.object({ id: z.string(), name: z.string(), color: z.string().nullable(), createdAt: z.string() }),
  tagged: int().describe("Leads that got the tag now"),
  alreadyTagged: int().describe("Leads that had it already"),
  notFound: z.array(z.string()).describe("Ids that are no lead of this workspace"),
});
export const bulkUntagResult = z.object({
  tagId: z.string(),
  untagged: int().describe("Leads the tag was taken off"),
  notTagged: int().describe("Leads of the workspace that did not have it"),
  notFound: z.array(z.string()).describe("Ids that are no lead of this workspace"),
});
