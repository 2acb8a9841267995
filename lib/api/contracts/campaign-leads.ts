import { defineRoute } from "../route";
import { addLeadsResponseSchema } from "./responses";
import {
  addLeadsBody,
  listCampaignLeadsQuery,
  poolPutBody,
  poolRemoveBody,
  poolSelectBody,
  reassignBody,
  removeLeadsBody,
} from "../../campaigns/schemas";
import * as cr from "./campaign-responses";
import { pagedListResponse } from "./paged";

const cl = "Campaign leads";
const pool = "Mailbox pool";

/** Campaign leads and the mailbox pool: part of campaignRoutes, kept apart for size. */
export const campaignLeadRoutes = {
  addLeads: defineRoute({
    method: "POST",
    path: "/campaigns/{id}/leads",
    tag: cl,
    access: "write",
    body: addLeadsBody,
    summary: "Add leads and assign each a pool mailbox (assigned, suppressed, no_eligible_mailbox, seg_blocked, error)",
    response: { description: "`{ results: [{ leadId, email, result, mailboxId }], added }`", schema: addLeadsResponseSchema },
  }),
  listLeads: defineRoute({
    method: "GET",
    path: "/campaigns/{id}/leads",
    tag: cl,
    access: "read",
    query: listCampaignLeadsQuery,
    summary: "The campaign's leads with their mailbox and progress (limit up to 1000)",
    response: { description: "`{ leads, page, limit, total }`", schema: pagedListResponse("leads", cr.campaignLeadSchema).schema },
  }),
  removeLead: defineRoute({
    method: "DELETE",
    path: "/campaigns/{id}/leads/{leadId}",
    tag: cl,
    access: "write",
    summary: "Remove one lead from the campaign",
    response: { description: "`{ removed, leadId }`", schema: cr.removeLeadSchema },
  }),
  removeLeads: defineRoute({
    method: "POST",
    path: "/campaigns/{id}/leads/remove",
    tag: cl,
    access: "write",
    body: removeLeadsBody,
    summary: "Remove up to 5,000 leads",
    response: { description: "`{ removed, notInCampaign }`", schema: cr.removeLeadsSchema },
  }),
  reassign: defineRoute({
    method: "POST",
    path: "/campaigns/{id}/leads/reassign",
    tag: cl,
    access: "write",
    body: reassignBody,
    summary: "Give leads not yet emailed a mailbox from the current pool (1,000 per call; more: true means call again)",
    response: {
      description: "`{ reassigned, leftUnassigned, skippedAlreadyEmailed, unchanged, notInCampaign, more }`",
      schema: cr.reassignSchema,
    },
  }),
  getPool: defineRoute({
    method: "GET",
    path: "/campaigns/{id}/mailboxes",
    tag: pool,
    access: "read",
    summary: "The pool and which mailboxes are actively sending",
    response: { description: "`{ poolSize, activelySending, mailboxes, leadsOutsidePool }`", schema: cr.poolSchema },
  }),
  putPool: defineRoute({
    method: "PUT",
    path: "/campaigns/{id}/mailboxes",
    tag: pool,
    access: "write",
    body: poolPutBody,
    summary: "Replace the pool (assigned leads are not moved)",
    response: { description: "`{ poolSize, added, removed, notFound, leadsOutsidePool }`", schema: cr.poolChangeSchema },
  }),
  selectPool: defineRoute({
    method: "POST",
    path: "/campaigns/{id}/mailboxes/select",
    tag: pool,
    access: "write",
    body: poolSelectBody,
    summary: "Add mailboxes by ids (manual), by tags (tag) or at random (random: count, optionally within tagIds)",
    response: { description: "Same fields as PUT", schema: cr.poolChangeSchema },
  }),
  removePool: defineRoute({
    method: "POST",
    path: "/campaigns/{id}/mailboxes/remove",
    tag: pool,
    access: "write",
    body: poolRemoveBody,
    summary: "Remove mailboxes from the pool",
    response: { description: "`{ removed, notInPool, poolSize, leadsOutsidePool }`", schema: cr.poolRemoveSchema },
  }),
  removePoolOne: defineRoute({
    method: "DELETE",
    path: "/campaigns/{id}/mailboxes/{mailboxId}",
    tag: pool,
    access: "write",
    summary: "Remove one mailbox from the pool",
    response: { description: "`{ removed, notInPool, poolSize, leadsOutsidePool }`", schema: cr.poolRemoveSchema },
  }),
};
