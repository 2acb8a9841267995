import { z } from "zod";
import { INTENTS } from "../../inbox/schemas";
import { leadSchema } from "../../leads/schemas";
import { addLeadsResponseSchema, referralSchema, replySchema } from "./responses";

/** Response schemas of the inbox, AI, CRM and webhook routes (inbox.ts, ai-crm.ts, webhooks.ts). */

const int = () => z.number().int();
const address = z.object({ name: z.string().nullable(), address: z.string() });
const fileRef = z.object({ id: z.string(), filename: z.string(), contentType: z.string(), size: int() });
const intent = z.enum(INTENTS);
/** A member of the team as the inbox names them (their name, else their email). */
const person = z.object({ userId: z.string(), name: z.string().describe("The user's name, else their email") });
const assignee = person.nullable().describe("Who in the team handles the conversation; null when nobody does");

export const threadSummarySchema = z.object({
  leadId: z.string(),
  latestReply: replySchema,
  unreadCount: int(),
  replyCount: int(),
  answered: z.boolean(),
  lastAnsweredAt: z.string().nullable(),
  lead: z
    .object({
      id: z.string(),
      email: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      companyName: z.string().nullable(),
    })
    .nullable(),
  mailbox: z.object({ id: z.string(), email: z.string(), senderName: z.string().nullable() }).nullable(),
  campaign: z.object({ id: z.string(), name: z.string(), status: z.enum(["DRAFT", "ACTIVE", "PAUSED", "ARCHIVED"]) }).nullable(),
  assignee,
});

/** A message no lead matched, with where it arrived. */
export const unmatchedSchema = replySchema.extend({
  mailboxEmail: z.string(),
  folder: z.string(),
  to: z.array(address),
  cc: z.array(address),
});
export const unmatchedOneSchema = unmatchedSchema.extend({ html: z.string().nullable(), attachments: z.array(fileRef) });
export const repliesSummarySchema = z.object({ today: int(), yesterday: int(), earlier: int() });
export const unreadCountSchema = z.object({ messages: int(), conversations: int() });

const inbound = z.object({
  id: z.string(),
  direction: z.literal("inbound"),
  timestamp: z.string(),
  subject: z.string(),
  body: z.string(),
  html: z.string().nullable(),
  mailboxEmail: z.string(),
  from: address.nullable(),
  to: z.array(address),
  cc: z.array(address),
  attachments: z.array(fileRef),
  intentClassification: intent,
  remindAt: z.string().nullable(),
  starred: z.boolean(),
  referral: referralSchema,
  returnDate: z.string().nullable().describe("YYYY-MM-DD: the day an out-of-office reply says its sender is back"),
  returnDateText: z.string().nullable().describe("The sentence the return date was read from"),
});
const campaignSend = z.object({
  id: z.string(),
  direction: z.literal("outbound"),
  kind: z.literal("campaign"),
  timestamp: z.string(),
  subject: z.string(),
  body: z.string().nullable(),
  mailboxEmail: z.string(),
  to: z.array(address.describe("name is always null: a campaign sends to the bare address")),
  cc: z.array(address).max(0),
  campaign: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  stepOrder: int().nullable(),
  status: z.enum(["SENDING", "SENT", "FAILED", "BOUNCED"]),
});
const sentReply = z.object({
  id: z.string(),
  direction: z.literal("outbound"),
  kind: z.literal("reply"),
  timestamp: z.string(),
  subject: z.string(),
  body: z.string(),
  html: z.string().nullable(),
  mailboxEmail: z.string(),
  to: z.array(address),
  cc: z.array(address),
  bcc: z.array(address),
  attachments: z.array(fileRef),
  sentBy: z.enum(["HUMAN", "API", "AGENT"]),
  sentByUser: person
    .nullable()
    .describe("The user who sent it from a dashboard session; null for an API key, a reply agent or a mail client"),
  status: z.enum(["SENDING", "SENT", "FAILED"]),
  error: z.string().nullable(),
});
/** A conversation with one lead, oldest first: their messages, the campaign's sends and our replies. */
/** POST /replies/{id}/referral/add: the lead as POST /leads reports it, plus its add-to-campaign result. */
export const referralAddResultSchema = z.object({
  email: z.string(),
  id: z.string().nullable().describe("The lead created or merged; null when the address is suppressed or malformed (nothing saved)"),
  status: z.enum(["created", "updated", "suppressed", "invalid"]),
  reason: z.string().optional().describe("Why a malformed address was refused"),
  campaign: addLeadsResponseSchema.shape.results.element
    .nullable()
    .describe("The POST /campaigns/{id}/leads result of the lead; null without a campaign or when no lead was saved"),
});
export const threadSchema = z.object({ lead: leadSchema, assignee, messages: z.array(z.union([inbound, campaignSend, sentReply])) });
/** PATCH /replies/thread/<leadId>/assign. */
export const assignResultSchema = z.object({ leadId: z.string(), assignee });
export const markedSchema = z.object({ marked: int() });

const queued = z.object({ queued: z.boolean(), status: z.literal("SENDING"), sentReplyId: z.string() });
/** 200: the mail server accepted the reply. */
export const sendReplyResultSchema = z.object({ sent: z.literal(true), sentReplyId: z.string(), sentAt: z.string() });
/** 202: `background: true` — the reply is SENDING and a job sends it. */
export const sendReplyQueuedSchema = queued.extend({ queued: z.literal(true) });
export const retryResultSchema = queued;
export const forwardResultSchema = z.object({ forwarded: z.boolean(), to: z.string(), messageId: z.string(), sentAt: z.string() });
export const uploadResultSchema = z.object({ id: z.string(), filename: z.string(), size: int() });

export const aiSettingsSchema = z.object({
  provider: z.string(),
  model: z.string().nullable(),
  credits: z.object({ limit: int(), used: int(), remaining: int(), resetsAt: z.string() }),
  aiClassificationEnabled: z.boolean(),
  aiDraftEnabled: z.boolean(),
  autoTagOnReply: z.boolean(),
  customInstructions: z.string(),
  monthlyCredits: int(),
});
export const draftSchema = z.object({
  draft: z.object({ body: z.string(), to: z.array(address) }),
  provider: z.string().describe("The AI provider's name; agent-ai or agent-fallback for a reply agent's grounded draft"),
  generatedBy: z
    .enum(["template", "ai"])
    .describe("How the draft was made: ai by the AI provider's model, template by the built-in template (no provider configured)"),
  creditsRemaining: int(),
  agent: z
    .object({ id: z.string(), name: z.string() })
    .nullable()
    .describe("The reply agent whose grounded answer this is (campaigns with an agent), else null"),
});
export const pipelineRowSchema = z.object({
  lead: leadSchema.nullable(),
  campaign: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  stage: z.object({ stepOrder: int().nullable(), name: z.string() }),
  intent: z.string(),
  lastReplyAt: z.string(),
  replyCount: int(),
});

/** A webhook endpoint; its secret only when created or rotated. */
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  retryAttempts: int(),
  timeoutMs: int(),
  previousSecretActiveUntil: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const webhooksSchema = z.object({ webhooks: z.array(webhookSchema) });
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export const deliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  event: z.string(),
  status: z.enum(["PENDING", "DELIVERED", "FAILED"]),
  attempts: int(),
  lastStatusCode: int().nullable(),
  lastResponse: z.string().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  isTest: z.boolean(),
  createdAt: z.string(),
});
export const resendResultSchema = deliverySchema.extend({ delivered: z.boolean() });
export const webhookTestSchema = z.object({
  delivered: z.boolean(),
  statusCode: int().nullable(),
  error: z.string().nullable(),
  deliveryId: z.string(),
  eventId: z.string(),
});
