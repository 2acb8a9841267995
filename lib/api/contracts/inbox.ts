import { defineRoute } from "../route";
import { pagedListResponse } from "./paged";
import { replySchema } from "./responses";
import {
  addReferralBody,
  assignBody,
  forwardBody,
  intentCountsQuery,
  intentCountsResult,
  listRepliesQuery,
  remindBody,
  sendReplyBody,
  starBody,
  threadsQuery,
  unmatchedQuery,
} from "../../inbox/schemas";
import * as ir from "./inbox-responses";
import { binaryFile } from "./paged";

const tag = "Inbox";

/**
 * The raw body a reply may send (files 20 MB in all, checked decoded by sendReply, 413):
 * 20 MB of files in base64 (4 bytes per 3), with room for the rest — body, html, addresses, names,
 * line breaks in the base64 — so a valid request is never refused for its encoding.
 */
export const SEND_REPLY_BODY_LIMIT = Math.ceil((20 * 1024 * 1024) / 3) * 4 + 4 * 1024 * 1024;

export const inboxRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/replies",
    tag,
    access: "read",
    query: listRepliesQuery,
    summary: "Replies, newest first: q, intent, campaignId, hasReminder",
    response: pagedListResponse("replies", replySchema),
  }),
  threads: defineRoute({
    method: "GET",
    path: "/replies/threads",
    tag,
    access: "read",
    query: threadsQuery,
    summary: "Conversations, one row per lead, newest first, each with its assignee; `assignee=me|none|<userId>` filters by who handles it",
    response: { description: "`{ threads, page, limit, total }`", schema: pagedListResponse("threads", ir.threadSummarySchema).schema },
  }),
  unmatched: defineRoute({
    method: "GET",
    path: "/replies/unmatched",
    tag,
    access: "read",
    query: unmatchedQuery,
    summary: "Received messages that matched no lead (kept, not dropped)",
    response: { description: "`{ replies, page, limit, total }`", schema: pagedListResponse("replies", ir.unmatchedSchema).schema },
  }),
  unmatchedOne: defineRoute({
    method: "GET",
    path: "/replies/unmatched/{id}",
    tag,
    access: "read",
    summary: "One message that matched no lead: the list row plus `html` (as received) and `attachments`",
    response: { description: "The message", schema: ir.unmatchedOneSchema },
  }),
  intentCounts: defineRoute({
    method: "GET",
    path: "/replies/intent-counts",
    tag,
    access: "read",
    query: intentCountsQuery,
    summary: "Conversations per intent of their latest reply, with all and unread ones; the filters of /replies/threads other than intent",
    response: { description: "`{ all, unread, intents: { <INTENT>: n } }`", schema: intentCountsResult },
  }),
  summary: defineRoute({
    method: "GET",
    path: "/replies/summary",
    tag,
    access: "read",
    summary: "Replies received today, yesterday and earlier",
    response: { description: "`{ today, yesterday, earlier }`", schema: ir.repliesSummarySchema },
  }),
  unread: defineRoute({
    method: "GET",
    path: "/replies/unread-count",
    tag,
    access: "read",
    summary: "Unread replies and conversations",
    response: { description: "`{ messages, conversations }`", schema: ir.unreadCountSchema },
  }),
  thread: defineRoute({
    method: "GET",
    path: "/replies/thread/{leadId}",
    tag,
    access: "read",
    summary: "One conversation, oldest first, with who it is assigned to; our replies say who sent them (`sentByUser`)",
    response: { description: "`{ lead, assignee, messages }`", schema: ir.threadSchema },
  }),
  assign: defineRoute({
    method: "PATCH",
    path: "/replies/thread/{leadId}/assign",
    tag,
    access: "write",
    body: assignBody,
    summary: "Assign the conversation to a member of the workspace (not a client), or unassign it with `userId: null`",
    response: { description: "`{ leadId, assignee }`", schema: ir.assignResultSchema },
  }),
  read: defineRoute({
    method: "POST",
    path: "/replies/thread/{leadId}/read",
    tag,
    access: "write",
    summary: "Mark every reply of the conversation read",
    response: { description: "`{ marked }`", schema: ir.markedSchema },
  }),
  star: defineRoute({
    method: "PATCH",
    path: "/replies/{id}/star",
    tag,
    access: "write",
    body: starBody,
    summary: "Star or unstar a reply",
    response: { description: "The reply", schema: replySchema },
  }),
  remind: defineRoute({
    method: "PATCH",
    path: "/replies/{id}/remind",
    tag,
    access: "write",
    body: remindBody,
    summary: "Set (ISO date-time) or clear (null) a reminder",
    response: { description: "The reply", schema: replySchema },
  }),
  send: defineRoute({
    method: "POST",
    path: "/replies/{id}/send",
    tag,
    access: "write",
    body: sendReplyBody,
    bodyLimit: SEND_REPLY_BODY_LIMIT,
    errors: [502],
    summary:
      "Reply (threaded). Synchronous: `{ sent, sentReplyId, sentAt }` once accepted; " +
      "background: 202 `{ queued, status: SENDING, sentReplyId }`. " +
      "Through an API key only people already in the conversation (403 otherwise)",
    response: { description: "Sent: the mail server accepted the reply", schema: ir.sendReplyResultSchema },
    otherResponses: [
      { status: 202, description: "Queued (`background: true`): SENDING, a background job sends it", schema: ir.sendReplyQueuedSchema },
    ],
  }),
  forward: defineRoute({
    method: "POST",
    path: "/replies/{id}/forward",
    tag,
    access: "write",
    body: forwardBody,
    errors: [502],
    summary: "Forward the original message (with its files) to another address, from the conversation's mailbox",
    response: { description: "`{ forwarded, to, messageId, sentAt }`", schema: ir.forwardResultSchema },
  }),
  referralAdd: defineRoute({
    method: "POST",
    path: "/replies/{id}/referral/add",
    tag,
    access: "write",
    body: addReferralBody,
    bodyOptional: true,
    errors: [409],
    summary:
      "Make the person a WRONG_PERSON reply refers to a lead (as POST /leads does for one lead, with custom fields referrerName " +
      "and referrerEmail) and add them to campaignId (default: the reply's campaign). 409 when the reply names no address",
    response: { description: "`{ email, id, status, campaign }`", schema: ir.referralAddResultSchema },
  }),
  attachment: defineRoute({
    method: "GET",
    path: "/replies/attachments/{id}",
    tag,
    access: "read",
    summary: "Download a file of a conversation",
    response: { description: "The file's bytes", schema: binaryFile, contentType: "application/octet-stream" },
  }),
  upload: defineRoute({
    method: "POST",
    path: "/replies/uploads",
    tag,
    access: "write",
    errors: [413],
    summary:
      "Upload a file to send with a reply: raw bytes (application/octet-stream), X-Filename (URL-encoded), X-Content-Type. Removed after a day unless sent",
    response: { status: 201, description: "`{ id, filename, size }`", schema: ir.uploadResultSchema },
  }),
  retry: defineRoute({
    method: "POST",
    path: "/replies/sent/{id}/retry",
    tag,
    access: "write",
    errors: [409],
    summary: "Send a FAILED reply again (202; SENDING while in flight)",
    response: { status: 202, description: "`{ queued, status, sentReplyId }`", schema: ir.retryResultSchema },
  }),
};
