import { z } from "zod";
import { pageQuery } from "../api/paging";

export const INTENTS = ["UNCLASSIFIED", "INTERESTED", "NOT_INTERESTED", "OUT_OF_OFFICE", "WRONG_PERSON", "UNSUBSCRIBE_REQUEST", "QUESTION"] as const;

export const listRepliesQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  q: z.string().max(200).optional(),
  intent: z.enum(INTENTS).optional(),
  campaignId: z.string().max(100).optional(),
  hasReminder: z.enum(["true", "false"]).optional(),
});
export const threadsQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  intent: z.enum(INTENTS).optional(),
  campaignId: z.string().max(100).optional(),
  unread: z.enum(["true", "false"]).optional(),
  starred: z.enum(["true", "false"]).optional(),
});
export const starBody = z.object({ starred: z.boolean() });
export const remindBody = z.object({ remindAt: z.iso.datetime({ offset: true }).nullable() });
