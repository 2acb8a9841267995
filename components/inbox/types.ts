/**
 * The Inbox API's response shapes, from the typed client generated from the OpenAPI document
 * (lib/client): a change to a contract is a type error in the unibox.
 */
import type { BodyOf, QueryOf, ResponseOf } from "@/lib/client";

export type Intent = NonNullable<QueryOf<"/replies/threads", "get">["intent"]>;
export type Address = { name: string | null; address: string };

/** One row of GET /replies/threads: a conversation (one lead) with its latest reply. */
export type ThreadPage = ResponseOf<"/replies/threads", "get">;
export type Thread = ThreadPage["threads"][number];

/** GET /replies/thread/<leadId>: the lead and every message, oldest first. */
export type Conversation = ResponseOf<"/replies/thread/{leadId}", "get">;
export type Message = Conversation["messages"][number];
export type InboundMessage = Extract<Message, { direction: "inbound" }>;
export type CampaignMessage = Extract<Message, { kind: "campaign" }>;
export type ReplyMessage = Extract<Message, { kind: "reply" }>;

export type UnreadCount = ResponseOf<"/replies/unread-count", "get">;
/** GET /replies/intent-counts: conversations per latest-reply intent, all and unread ones. */
export type IntentCounts = ResponseOf<"/replies/intent-counts", "get">;

/** One row of GET /replies/unmatched: a received message that matched no lead. */
export type UnmatchedPage = ResponseOf<"/replies/unmatched", "get">;
export type UnmatchedRow = UnmatchedPage["replies"][number];
/** GET /replies/unmatched/<id>: the row plus its HTML and files. */
export type UnmatchedMessage = ResponseOf<"/replies/unmatched/{id}", "get">;
export type MarkRead = ResponseOf<"/replies/thread/{leadId}/read", "post">;
/** PATCH /replies/<id>/star and /remind answer with the reply. */
export type ReplyView = ResponseOf<"/replies/{id}/star", "patch">;

/** POST /replies/<id>/send: 200 once the server accepted it, 202 when queued (background). */
export type SendResult = ResponseOf<"/replies/{id}/send", "post">;
export type RetryResult = ResponseOf<"/replies/sent/{id}/retry", "post">;

/** The body of POST /replies/<id>/send. */
export type SendInput = BodyOf<"/replies/{id}/send", "post">;

/** The body of POST /replies/<id>/forward, and its answer once the server accepted it. */
export type ForwardInput = BodyOf<"/replies/{id}/forward", "post">;
export type ForwardResult = ResponseOf<"/replies/{id}/forward", "post">;
/** POST /replies/<id>/draft: the draft, the provider, credits left and the reply agent that wrote it. */
export type DraftResult = ResponseOf<"/replies/{id}/draft", "post">;
