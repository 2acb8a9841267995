import { defineRoute } from "../route";
import { listRepliesQuery, remindBody, starBody, threadsQuery } from "../../inbox/schemas";

const tag = "Inbox";

export const inboxRoutes = {
  list: defineRoute({ method: "GET", path: "/replies", tag, access: "read", query: listRepliesQuery, summary: "Replies, newest first: q, intent, campaignId, hasReminder", response: { description: "`{ replies, page, limit, total }`" } }),
  threads: defineRoute({ method: "GET", path: "/replies/threads", tag, access: "read", query: threadsQuery, summary: "Conversations, one row per lead, newest first", response: { description: "`{ threads, page, limit, total }`" } }),
  summary: defineRoute({ method: "GET", path: "/replies/summary", tag, access: "read", summary: "Replies received today, yesterday and earlier", response: { description: "`{ today, yesterday, earlier }`" } }),
  unread: defineRoute({ method: "GET", path: "/replies/unread-count", tag, access: "read", summary: "Unread replies and conversations", response: { description: "`{ messages, conversations }`" } }),
  thread: defineRoute({ method: "GET", path: "/replies/thread/{leadId}", tag, access: "read", summary: "One conversation, oldest first", response: { description: "`{ lead, messages }`" } }),
  read: defineRoute({ method: "POST", path: "/replies/thread/{leadId}/read", tag, access: "write", summary: "Mark every reply of the conversation read", response: { description: "`{ marked }`" } }),
  star: defineRoute({ method: "PATCH", path: "/replies/{id}/star", tag, access: "write", body: starBody, summary: "Star or unstar a reply", response: { description: "The reply" } }),
  remind: defineRoute({ method: "PATCH", path: "/replies/{id}/remind", tag, access: "write", body: remindBody, summary: "Set (ISO date-time) or clear (null) a reminder", response: { description: "The reply" } }),
};
