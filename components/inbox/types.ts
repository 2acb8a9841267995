/**
 * The Inbox API's response shapes, taken from the functions that build them (type-only imports:
 * nothing of lib/ reaches the browser bundle), so the unibox cannot drift from what the routes return.
 */
import type { Address } from "@/db/schema/inbox";
import type {
  getThread,
  getUnmatched,
  intentCounts,
  listThreads,
  listUnmatched,
  markThreadRead,
  starReply,
  unreadCount,
} from "@/lib/inbox/read";
import type { INTENTS } from "@/lib/inbox/schemas";
import type { forwardReply, retryReply } from "@/lib/inbox/send-reply";

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export type Intent = (typeof INTENTS)[number];
export type { Address };

/** One row of GET /replies/threads: a conversation (one lead) with its latest reply. */
export type Thread = Result<typeof listThreads>["rows"][number];
export interface ThreadPage {
  threads: Thread[];
  page: number;
  limit: number;
  total: number;
}

/** GET /replies/thread/<leadId>: the lead and every message, oldest first. */
export type Conversation = Result<typeof getThread>;
export type Message = Conversation["messages"][number];
export type InboundMessage = Extract<Message, { direction: "inbound" }>;
export type CampaignMessage = Extract<Message, { kind: "campaign" }>;
export type ReplyMessage = Extract<Message, { kind: "reply" }>;

export type UnreadCount = Result<typeof unreadCount>;
/** GET /replies/intent-counts: conversations per latest-reply intent, all and unread ones. */
export type IntentCounts = Result<typeof intentCounts>;

/** One row of GET /replies/unmatched: a received message that matched no lead. */
export type UnmatchedRow = Result<typeof listUnmatched>["rows"][number];
export interface UnmatchedPage {
  replies: UnmatchedRow[];
  page: number;
  limit: number;
  total: number;
}
/** GET /replies/unmatched/<id>: the row plus its HTML and files. */
export type UnmatchedMessage = Result<typeof getUnmatched>;
export type MarkRead = Result<typeof markThreadRead>;
/** PATCH /replies/<id>/star and /remind answer with the reply. */
export type ReplyView = Result<typeof starReply>;

/** POST /replies/<id>/send: 200 once the server accepted it, 202 when queued (background). */
export type SendResult = { sent: true; sentReplyId: string; sentAt: string } | { queued: true; status: "SENDING"; sentReplyId: string };
export type RetryResult = Result<typeof retryReply>;

/** The body of POST /replies/<id>/send. */
export interface SendInput {
  body: string;
  to?: Address[];
  cc?: Address[];
  bcc?: Address[];
  background?: boolean;
}

/** The body of POST /replies/<id>/forward, and its answer once the server accepted it. */
export interface ForwardInput {
  to: Address | string;
  body?: string;
}
export type ForwardResult = Result<typeof forwardReply>;
