import { z } from "zod";
import { pageQuery } from "../paging";

export const INTENTS = [
  "UNCLASSIFIED",
  "INTERESTED",
  "NOT_INTERESTED",
  "OUT_OF_OFFICE",
  "WRONG_PERSON",
  "UNSUBSCRIBE_REQUEST",
  "QUESTION",
] as const;

export const listRepliesQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  q: z.string().max(200).optional(),
  intent: z.enum(INTENTS).optional(),
  campaignId: z.string().max(100).optional(),
  hasReminder: z.enum(["true", "false"]).optional(),
});
/** Whose conversations: `me` (the session's user, or the API key's creator), `none` (unassigned), or a user id. */
const assigneeFilter = z.string().trim().min(1).max(200).optional().describe("me, none, or a user id: the conversations assigned to them");
export const threadsQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  intent: z.enum(INTENTS).optional(),
  campaignId: z.string().max(100).optional(),
  unread: z.enum(["true", "false"]).optional(),
  starred: z.enum(["true", "false"]).optional(),
  assignee: assigneeFilter,
});
export const assignBody = z.object({
  userId: z.string().max(200).nullable().describe("A member of the workspace who is not a client; null unassigns"),
});
export const starBody = z.object({ starred: z.boolean() });
export const remindBody = z.object({ remindAt: z.iso.datetime({ offset: true }).nullable() });

/** An address: `{ name?, address }` or a bare string. Only the bare address ever reaches RCPT TO. */
export const addressInput = z.union([
  z.string().max(320),
  z.object({ name: z.string().max(200).nullable().optional(), address: z.string().max(320) }),
]);
export const sendReplyBody = z.object({
  body: z.string().min(1, "body is required").max(200_000),
  html: z.string().max(1_000_000).optional(),
  to: z.array(addressInput).max(20, "at most 20 recipients in to").optional(),
  cc: z.array(addressInput).max(20, "at most 20 recipients in cc").optional(),
  bcc: z.array(addressInput).max(20, "at most 20 recipients in bcc").optional(),
  attachments: z
    .array(
      z.object({
        filename: z.string().trim().min(1).max(255),
        contentType: z.string().trim().min(1).max(255),
        contentBase64: z.string().min(1),
        cid: z.string().max(200).optional(),
      }),
    )
    .max(10, "at most 10 files")
    .optional(),
  uploadIds: z.array(z.string().max(100)).max(10, "at most 10 files").optional(),
  background: z.boolean().optional(),
});
export const forwardBody = z.object({ to: addressInput, body: z.string().max(200_000).optional() });
/** POST /replies/<id>/referral/add: the campaign to add the referred person to (default: the reply's own). */
export const addReferralBody = z.object({
  campaignId: z.string().trim().min(1).max(100).optional().describe("The campaign to add the new lead to; default: the reply's campaign"),
});

export const unmatchedQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 });

/** GET /replies/intent-counts: the filters of /replies/threads that do not pick an intent. */
export const intentCountsQuery = z.object({
  campaignId: z.string().max(100).optional(),
  unread: z.enum(["true", "false"]).optional(),
  starred: z.enum(["true", "false"]).optional(),
  assignee: assigneeFilter,
});
export const intentCountsResult = z.object({
  all: z.number().int().describe("Conversations matching the filters (what /replies/threads would total)"),
  unread: z.number().int().describe("Of those, conversations with at least one unread reply"),
  intents: z
    .object(Object.fromEntries(INTENTS.map((i) => [i, z.number().int()])) as Record<(typeof INTENTS)[number], z.ZodNumber>)
    .describe("Conversations by the intent of their latest reply; every intent is present, 0 when none"),
});
