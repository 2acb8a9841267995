import { defineRoute } from "../route";
import {
  addLeadsBody,
  attachmentBody,
  bulkSettingsBody,
  campaignIdsBody,
  createCampaignBody,
  createStepBody,
  deleteQuery,
  duplicateBody,
  listCampaignLeadsQuery,
  listCampaignsQuery,
  patchSettingsBody,
  patchStepBody,
  poolPutBody,
  poolRemoveBody,
  poolSelectBody,
  previewBody,
  putStepsBody,
  reassignBody,
  removeLeadsBody,
  statusBody,
  stepTestSendBody,
} from "../../campaigns/schemas";
import { activityQuery, daysQuery } from "../../campaigns/stats-views";
import { scheduleQuery } from "../../campaigns/schedule";

const tag = "Campaigns";
const steps = "Sequence steps";
const cl = "Campaign leads";
const pool = "Mailbox pool";

export const campaignRoutes = {
  list: defineRoute({ method: "GET", path: "/campaigns", tag, access: "read", query: listCampaignsQuery, summary: "Campaigns with stats: a plain array with X-Total-Count, X-Page, X-Limit (first page up to 500)", response: { description: "Array of campaigns" } }),
  create: defineRoute({ method: "POST", path: "/campaigns", tag, access: "write", body: createCampaignBody, summary: "Create a campaign (starts as DRAFT)", response: { status: 201, description: "The campaign" } }),
  get: defineRoute({ method: "GET", path: "/campaigns/{id}", tag, access: "read", summary: "One campaign with its settings and stats", response: { description: "The campaign" } }),
  patch: defineRoute({ method: "PATCH", path: "/campaigns/{id}", tag, access: "write", body: patchSettingsBody, summary: "Update campaign settings (only sent fields change)", response: { description: "The campaign" } }),
  delete: defineRoute({
    method: "DELETE", path: "/campaigns/{id}", tag, access: "write", role: "admin", query: deleteQuery, errors: [409],
    summary: "Delete a campaign (owner/admin; API key: only a never-sent DRAFT, and deleteLeads=true is 403)",
    response: { description: "`{ deleted, id, leadsDeleted, leadsKept }`" },
  }),
  getSettings: defineRoute({ method: "GET", path: "/campaigns/{id}/settings", tag, access: "read", summary: "All settings", response: { description: "The settings" } }),
  patchSettings: defineRoute({ method: "PATCH", path: "/campaigns/{id}/settings", tag, access: "write", body: patchSettingsBody, summary: "Change settings; only the sent fields change", response: { description: "The campaign" } }),
  status: defineRoute({
    method: "PATCH", path: "/campaigns/{id}/status", tag, access: "write", body: statusBody, errors: [409],
    summary: "Set ACTIVE, PAUSED or ARCHIVED. ACTIVE with blockers or warming mailboxes needs confirm: true (else 409 LAUNCH_NEEDS_CONFIRMATION with the launch report)",
    response: { description: "The campaign (plus launchReport when activated)" },
  }),
  deletePreview: defineRoute({ method: "GET", path: "/campaigns/{id}/delete-preview", tag, access: "read", role: "admin", summary: "What a delete would remove (owner/admin)", response: { description: "`{ leadsOnlyHere, leadsInOtherCampaigns, sends, replies }`" } }),
  duplicate: defineRoute({ method: "POST", path: "/campaigns/{id}/duplicate", tag, access: "write", body: duplicateBody, summary: "Copy steps, settings, attachments and (by default) the pool into a new DRAFT; leads are not copied", response: { status: 201, description: "The new campaign" } }),
  bulkSettings: defineRoute({ method: "PATCH", path: "/campaigns/bulk-settings", tag, access: "write", body: bulkSettingsBody, summary: "Apply settings to up to 500 campaigns", response: { description: "`{ updated, updatedIds, failed, notFound }`" } }),
  bulkArchive: defineRoute({ method: "POST", path: "/campaigns/bulk-archive", tag, access: "write", body: campaignIdsBody, summary: "Archive many campaigns", response: { description: "`{ archived, notFound }`" } }),
  stats: defineRoute({ method: "GET", path: "/campaigns/{id}/stats", tag, access: "read", summary: "Stats (spec 2.4) plus per step × variant results", response: { description: "2.4 fields plus `variants: [{ stepId, stepOrder, variantGroup, sent, opened, clicked, replied, bounced, …Rate }]`" } }),
  timeseries: defineRoute({ method: "GET", path: "/campaigns/{id}/timeseries", tag, access: "read", query: daysQuery, summary: "Daily counts (UTC days; days ≤ 90)", response: { description: "`{ campaignId, days, series: [{ date, sent, bounced, opened, clicked, replied }] }`" } }),
  sentTrends: defineRoute({ method: "GET", path: "/campaigns/sent-trends", tag, access: "read", query: daysQuery, summary: "Emails sent per day per campaign; campaigns with no send in the window are left out (days ≤ 90)", response: { description: "`{ dates, trends: { <campaignId>: number[] } }`" } }),
  schedule: defineRoute({
    method: "GET", path: "/campaigns/{id}/schedule", tag, access: "read", query: scheduleQuery,
    summary: "Forecast by the send rules: first emails and follow-ups per mailbox per day, and when the next leads get their next step",
    response: { description: "`{ campaignId, from, days, totals: [{ date, firstEmails, followUps }], mailboxes: [{ mailboxId, email, dailySendCap, perDay }], upcoming: [{ leadId, email, stepOrder, at, mailboxEmail }], notes }`" },
  }),
  activity: defineRoute({
    method: "GET", path: "/campaigns/{id}/activity", tag, access: "read", query: activityQuery,
    summary: "Every email of the campaign, newest first: status, bounce type, the server's code and reason, opens and clicks",
    response: { description: "`{ emails, page, limit, total }`" },
  }),
  launchCheck: defineRoute({ method: "GET", path: "/campaigns/{id}/launch-check", tag, access: "read", summary: "Launch report: ready, blockers, warnings (codes of spec 3.3)", response: { description: "`{ ready, blockers, warnings }`" } }),
  spamWords: defineRoute({ method: "POST", path: "/campaigns/{id}/check-spam-words", tag: steps, access: "read", summary: "Scan every step for spam-trigger words, with positions", response: { description: "`{ ok, total, steps: [{ stepId, matches: [{ field, word, category, index, length }] }] }`" } }),
  variablesCheck: defineRoute({ method: "GET", path: "/campaigns/{id}/variables-check", tag: steps, access: "read", summary: "Every step against every lead (up to 5000): used, unknown and empty tokens with lead counts; ok when no lead gets a raw token", response: { description: "`{ ok, leadsChecked, totalLeads, truncated, steps }`" } }),
  listSteps: defineRoute({ method: "GET", path: "/campaigns/{id}/steps", tag: steps, access: "read", summary: "Steps in order", response: { description: "`{ steps }`" } }),
  createStep: defineRoute({ method: "POST", path: "/campaigns/{id}/steps", tag: steps, access: "write", body: createStepBody, errors: [409], summary: "Add a step or a variant (subject required on step 0 only)", response: { status: 201, description: "The step" } }),
  putSteps: defineRoute({ method: "PUT", path: "/campaigns/{id}/steps", tag: steps, access: "write", body: putStepsBody, errors: [409], summary: "Replace the sequence, matching steps by stepOrder + variantGroup (a step that sent cannot be deleted: 409)", response: { description: "`{ created, updated, deleted, steps }`" } }),
  patchStep: defineRoute({ method: "PATCH", path: "/campaigns/{id}/steps/{stepId}", tag: steps, access: "write", body: patchStepBody, summary: "Update a step (inline images no longer shown by the body are removed)", response: { description: "The step" } }),
  deleteStep: defineRoute({ method: "DELETE", path: "/campaigns/{id}/steps/{stepId}", tag: steps, access: "write", errors: [409], summary: "Delete a step (409 once it has sent)", response: { description: "`{ deleted, id }`" } }),
  preview: defineRoute({ method: "POST", path: "/campaigns/{id}/steps/preview", tag: steps, access: "read", body: previewBody, summary: "Render a saved or draft step for a lead and mailbox with the real renderer (no tracking)", response: { description: "`{ subject, text, html, signature, variables, notes, lead, mailbox }`" } }),
  testSendStep: defineRoute({
    method: "POST", path: "/campaigns/{id}/steps/{stepId}/test-send", tag: steps, access: "write", body: stepTestSendBody, errors: [502],
    extraLimit: { name: "step-test-send", points: 5, durationSeconds: 60 },
    summary: "Send one step, rendered for a real lead with its files, to any address (5 per minute; not a campaign send)",
    response: { description: "`{ sent, messageId, to, from, subject, lead }`" },
  }),
  listAttachments: defineRoute({ method: "GET", path: "/campaigns/{id}/steps/{stepId}/attachments", tag: steps, access: "read", summary: "A step's files (inline images carry dataBase64)", response: { description: "`{ attachments }`" } }),
  addAttachment: defineRoute({
    method: "POST", path: "/campaigns/{id}/steps/{stepId}/attachments", tag: steps, access: "write", body: attachmentBody, bodyLimit: 15 * 1024 * 1024, errors: [413],
    summary: "Attach a file (base64; inline images PNG/JPEG/GIF/WebP ≤ 1 MB get a cid; 10 MB per step) or copy one by fromAttachmentId",
    response: { status: 201, description: "`{ id, filename, contentType, size, cid, inline }`" },
  }),
  deleteAttachment: defineRoute({ method: "DELETE", path: "/campaigns/{id}/steps/{stepId}/attachments/{attachmentId}", tag: steps, access: "write", summary: "Remove a file", response: { description: "`{ deleted, id }`" } }),
  addLeads: defineRoute({ method: "POST", path: "/campaigns/{id}/leads", tag: cl, access: "write", body: addLeadsBody, summary: "Add leads and assign each a pool mailbox (assigned, suppressed, no_eligible_mailbox, seg_blocked, error)", response: { description: "`{ results: [{ leadId, email, result, mailboxId }], added }`" } }),
  listLeads: defineRoute({ method: "GET", path: "/campaigns/{id}/leads", tag: cl, access: "read", query: listCampaignLeadsQuery, summary: "The campaign's leads with their mailbox and progress (limit up to 1000)", response: { description: "`{ leads, page, limit, total }`" } }),
  removeLead: defineRoute({ method: "DELETE", path: "/campaigns/{id}/leads/{leadId}", tag: cl, access: "write", summary: "Remove one lead from the campaign", response: { description: "`{ removed, leadId }`" } }),
  removeLeads: defineRoute({ method: "POST", path: "/campaigns/{id}/leads/remove", tag: cl, access: "write", body: removeLeadsBody, summary: "Remove up to 5,000 leads", response: { description: "`{ removed, notInCampaign }`" } }),
  reassign: defineRoute({ method: "POST", path: "/campaigns/{id}/leads/reassign", tag: cl, access: "write", body: reassignBody, summary: "Give leads not yet emailed a mailbox from the current pool (1,000 per call; more: true means call again)", response: { description: "`{ reassigned, leftUnassigned, skippedAlreadyEmailed, unchanged, notInCampaign, more }`" } }),
  getPool: defineRoute({ method: "GET", path: "/campaigns/{id}/mailboxes", tag: pool, access: "read", summary: "The pool and which mailboxes are actively sending", response: { description: "`{ poolSize, activelySending, mailboxes, leadsOutsidePool }`" } }),
  putPool: defineRoute({ method: "PUT", path: "/campaigns/{id}/mailboxes", tag: pool, access: "write", body: poolPutBody, summary: "Replace the pool (assigned leads are not moved)", response: { description: "`{ poolSize, added, removed, notFound, leadsOutsidePool }`" } }),
  selectPool: defineRoute({ method: "POST", path: "/campaigns/{id}/mailboxes/select", tag: pool, access: "write", body: poolSelectBody, summary: "Add mailboxes by ids (manual), by tags (tag) or at random (random: count, optionally within tagIds)", response: { description: "Same fields as PUT" } }),
  removePool: defineRoute({ method: "POST", path: "/campaigns/{id}/mailboxes/remove", tag: pool, access: "write", body: poolRemoveBody, summary: "Remove mailboxes from the pool", response: { description: "`{ removed, notInPool, poolSize, leadsOutsidePool }`" } }),
  removePoolOne: defineRoute({ method: "DELETE", path: "/campaigns/{id}/mailboxes/{mailboxId}", tag: pool, access: "write", summary: "Remove one mailbox from the pool", response: { description: "`{ removed, notInPool, poolSize, leadsOutsidePool }`" } }),
};
