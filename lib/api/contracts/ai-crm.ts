import { defineRoute } from "../route";
import { patchAiSettingsBody } from "../../ai/settings";
import { crmRepliesQuery, pipelineQuery } from "../../inbox/crm";
import * as ir from "./inbox-responses";
import { pagedListResponse } from "./paged";
import { replySchema } from "./responses";
import { z } from "zod";

export const aiRoutes = {
  get: defineRoute({
    method: "GET",
    path: "/ai-settings",
    tag: "AI",
    access: "read",
    summary: "AI configuration, provider and this month's credits",
    response: {
      description:
        "`{ aiClassificationEnabled, aiDraftEnabled, autoTagOnReply, customInstructions, monthlyCredits, provider, model, credits: { limit, used, remaining, resetsAt } }`",
      schema: ir.aiSettingsSchema,
    },
  }),
  patch: defineRoute({
    method: "PATCH",
    path: "/ai-settings",
    tag: "AI",
    access: "write",
    role: "admin",
    body: patchAiSettingsBody,
    summary: "Change AI settings (only sent fields; owner or admin)",
    response: { description: "The settings", schema: ir.aiSettingsSchema },
  }),
  draft: defineRoute({
    method: "POST",
    path: "/replies/{id}/draft",
    tag: "Inbox",
    access: "write",
    errors: [429, 502],
    summary: "AI draft of an answer: one credit, never sends (429 RATE_LIMITED with details.reason AI_CREDITS when out)",
    response: {
      description: "`{ draft: { body, to }, provider, generatedBy: template|ai, creditsRemaining, agent }`",
      schema: ir.draftSchema,
    },
  }),
};

export const crmRoutes = {
  pipeline: defineRoute({
    method: "GET",
    path: "/crm/pipeline",
    tag: "CRM",
    access: "read",
    query: pipelineQuery,
    summary:
      "Every lead that replied, by the sequence step they last replied to: a plain array with X-Total-Count, X-Page, X-Limit (first page 200)",
    response: {
      description: "Array of `{ lead, campaign, stage: { stepOrder, name }, intent, lastReplyAt, replyCount }`",
      schema: z.array(ir.pipelineRowSchema),
    },
  }),
  replies: defineRoute({
    method: "GET",
    path: "/crm/replies",
    tag: "CRM",
    access: "read",
    query: crmRepliesQuery,
    summary: "Replies filtered by intent",
    response: { description: "`{ replies, page, limit, total }`", schema: pagedListResponse("replies", replySchema).schema },
  }),
};
