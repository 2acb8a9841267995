import { z } from "zod";
import { defineRoute } from "../route";
import { pagedListResponse } from "./paged";
import {
  bulkDeleteBody,
  bulkPatchBody,
  createLeadsBody,
  createLeadsResult,
  leadSchema,
  listLeadsQuery,
  patchLeadBody,
  tagRef,
} from "../../leads/schemas";
import { isPlainCreateLeadsBody } from "../../leads/input-check";
import {
  bulkTagBody,
  bulkTagResult,
  bulkUntagBody,
  bulkUntagResult,
  leadCampaignSchema,
  timelineQuery,
  timelineResponse,
} from "../../leads/timeline-schemas";
import * as lr from "./lead-responses";

const tag = "Leads";

export const leadRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/leads",
    tag,
    access: "read",
    query: listLeadsQuery,
    summary: "List leads, newest first (stable order: paging returns each lead once)",
    response: pagedListResponse("leads", leadSchema),
  }),
  create: defineRoute({
    method: "POST",
    path: "/leads",
    tag,
    access: "write",
    body: createLeadsBody,
    bodyCheck: isPlainCreateLeadsBody,
    summary: "Create or merge up to 1,000 leads by email",
    response: {
      description: "Per-lead results in the order sent, counts, suppressed and invalid addresses, warnings",
      schema: createLeadsResult,
    },
  }),
  get: defineRoute({
    method: "GET",
    path: "/leads/{id}",
    tag,
    access: "read",
    summary: "One lead",
    response: { description: "The lead", schema: leadSchema },
  }),
  timeline: defineRoute({
    method: "GET",
    path: "/leads/{id}/timeline",
    tag,
    access: "read",
    query: timelineQuery,
    summary: "What happened to one lead, newest first: sends, opens, clicks, replies, bounces, campaigns, tags, suppression",
    response: { description: "`{ events, page, limit, total }` (docs/leads.md lists the kinds)", schema: timelineResponse },
  }),
  campaigns: defineRoute({
    method: "GET",
    path: "/leads/{id}/campaigns",
    tag,
    access: "read",
    summary: "The campaigns one lead is in, with its status and mailbox in each",
    response: { description: "`{ campaigns }`, the latest added first", schema: z.object({ campaigns: z.array(leadCampaignSchema) }) },
  }),
  bulkTag: defineRoute({
    method: "POST",
    path: "/leads/bulk-tag",
    tag,
    access: "write",
    body: bulkTagBody,
    summary: "Attach one tag (by `tagId`, or by `name`: created if new) to up to 1,000 leads",
    response: { description: "`{ tag, tagged, alreadyTagged, notFound }`", schema: bulkTagResult },
  }),
  bulkUntag: defineRoute({
    method: "POST",
    path: "/leads/bulk-untag",
    tag,
    access: "write",
    body: bulkUntagBody,
    summary: "Take one tag off up to 1,000 leads",
    response: { description: "`{ tagId, untagged, notTagged, notFound }`", schema: bulkUntagResult },
  }),
  patch: defineRoute({
    method: "PATCH",
    path: "/leads/{id}",
    tag,
    access: "write",
    body: patchLeadBody,
    summary: "Update one lead's sent fields (unknown timezone: 400)",
    response: { description: "The updated lead", schema: leadSchema },
  }),
  bulkPatch: defineRoute({
    method: "PATCH",
    path: "/leads/bulk",
    tag,
    access: "write",
    body: bulkPatchBody,
    summary: "Update up to 1,000 leads, each found by id or email",
    response: {
      description: "`{ updated, unchanged, notFound, suppressed, results, suppressedEmails }`",
      schema: lr.bulkPatchResultSchema,
    },
  }),
  bulkDelete: defineRoute({
    method: "POST",
    path: "/leads/bulk-delete",
    tag,
    access: "write",
    role: "admin",
    body: bulkDeleteBody,
    summary: "Delete up to 1,000 leads (owner or admin)",
    response: { description: "`{ deleted, notFound }`", schema: lr.bulkDeleteResultSchema },
  }),
  attachTag: defineRoute({
    method: "POST",
    path: "/leads/{leadId}/tags",
    tag,
    access: "write",
    body: tagRef,
    summary: "Attach a tag by `tagId`, or by `name` (created if new)",
    response: { description: "`{ leadId, tag, attached }`", schema: lr.leadTagAttachedSchema },
  }),
  detachTag: defineRoute({
    method: "DELETE",
    path: "/leads/{leadId}/tags/{tagId}",
    tag,
    access: "write",
    summary: "Remove a tag from a lead",
    response: { description: "`{ leadId, tagId, removed }`", schema: lr.leadTagRemovedSchema },
  }),
};
