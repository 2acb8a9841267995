"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { client, data, plainPage } from "@/components/api-client";
import type { QueryOf } from "@/lib/client";
import type { ForwardInput, Intent, SendInput } from "./types";

export const INBOX_KEY = ["inbox"] as const;

/** New replies come in through the IMAP sync in the background: the list looks again this often. */
const LIST_POLL_MS = 15_000;
/** A reply being sent in the background: looked at every 2 s until it is SENT or FAILED. */
const SENDING_POLL_MS = 2_000;

/** Whose conversations the list shows: everyone's, the signed-in user's, or nobody's. */
export type AssigneeFilter = "" | "me" | "none";

export interface ThreadFilters {
  intent: Intent | "";
  assignee: AssigneeFilter;
  unread: boolean;
  starred: boolean;
  campaignId: string;
  page: number;
  limit: number;
}

/** The filters the intent counts follow: all but the intent and the page. */
export type CountFilters = Pick<ThreadFilters, "assignee" | "unread" | "starred" | "campaignId">;

/** The filters as GET /replies/threads and /replies/intent-counts take them (only the ones set). */
function filterQuery(f: CountFilters): QueryOf<"/replies/intent-counts", "get"> {
  return {
    ...(f.assignee ? { assignee: f.assignee } : {}),
    ...(f.unread ? { unread: "true" as const } : {}),
    ...(f.starred ? { starred: "true" as const } : {}),
    ...(f.campaignId ? { campaignId: f.campaignId } : {}),
  };
}

function threadsQuery(f: ThreadFilters): QueryOf<"/replies/threads", "get"> {
  return { page: f.page, limit: f.limit, ...(f.intent ? { intent: f.intent } : {}), ...filterQuery(f) };
}

export function useThreads(f: ThreadFilters) {
  return useQuery({
    queryKey: [...INBOX_KEY, "threads", f],
    queryFn: ({ signal }) => data(client.GET("/replies/threads", { params: { query: threadsQuery(f) }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: LIST_POLL_MS,
  });
}

/**
 * How many conversations each intent chip would show with the other filters as they are, plus all
 * and unread ones: one GET /replies/intent-counts.
 */
export function useIntentCounts(f: CountFilters) {
  return useQuery({
    queryKey: [...INBOX_KEY, "intent-counts", f],
    queryFn: ({ signal }) => data(client.GET("/replies/intent-counts", { params: { query: filterQuery(f) }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: LIST_POLL_MS * 2,
  });
}

export function useUnreadCount() {
  return useQuery({
    queryKey: [...INBOX_KEY, "unread"],
    queryFn: ({ signal }) => data(client.GET("/replies/unread-count", { signal })),
    refetchInterval: LIST_POLL_MS,
  });
}

export interface UnmatchedPaging {
  page: number;
  limit: number;
}

/** Received messages that matched no lead, newest first. */
export function useUnmatched(p: UnmatchedPaging) {
  return useQuery({
    queryKey: [...INBOX_KEY, "unmatched", p],
    queryFn: ({ signal }) => data(client.GET("/replies/unmatched", { params: { query: { page: p.page, limit: p.limit } }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: LIST_POLL_MS,
  });
}

/** How many unmatched messages there are, for the view's tab (one row asked for, its total read). */
export function useUnmatchedCount() {
  return useQuery({
    queryKey: [...INBOX_KEY, "unmatched-count"],
    queryFn: ({ signal }) =>
      data(client.GET("/replies/unmatched", { params: { query: { page: 1, limit: 1 } }, signal })).then((r) => r.total),
    refetchInterval: LIST_POLL_MS * 2,
  });
}

export function useUnmatchedMessage(id: string | undefined) {
  return useQuery({
    queryKey: [...INBOX_KEY, "unmatched-message", id ?? ""],
    queryFn: ({ signal }) => data(client.GET("/replies/unmatched/{id}", { params: { path: { id: id! } }, signal })),
    enabled: !!id,
  });
}

/** Campaigns for the campaign filter (names only). */
export function useCampaignOptions() {
  return useQuery({
    queryKey: [...INBOX_KEY, "campaigns"],
    queryFn: ({ signal }) => plainPage(client.GET("/campaigns", { params: { query: { limit: 500 } }, signal })).then((p) => p.rows),
    staleTime: 60_000,
  });
}

export function conversationKey(leadId: string) {
  return [...INBOX_KEY, "conversation", leadId] as const;
}

export function useConversation(leadId: string | undefined) {
  return useQuery({
    queryKey: conversationKey(leadId ?? ""),
    queryFn: ({ signal }) => data(client.GET("/replies/thread/{leadId}", { params: { path: { leadId: leadId! } }, signal })),
    enabled: !!leadId,
    // Replies being sent in the background are watched closely; otherwise new messages show within the list's pace.
    refetchInterval: (q) =>
      q.state.data?.messages.some((m) => m.direction === "outbound" && m.kind === "reply" && m.status === "SENDING")
        ? SENDING_POLL_MS
        : LIST_POLL_MS,
  });
}

/** After a change: the list, the counts and the open conversation are all looked up again. */
export function refreshInbox(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: INBOX_KEY });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (leadId: string) => data(client.POST("/replies/thread/{leadId}/read", { params: { path: { leadId } } })),
    onSuccess: async (r) => {
      if (r.marked > 0) {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: [...INBOX_KEY, "threads"] }),
          queryClient.invalidateQueries({ queryKey: [...INBOX_KEY, "intent-counts"] }),
          queryClient.invalidateQueries({ queryKey: [...INBOX_KEY, "unread"] }),
        ]);
      }
    },
  });
}

export function useStar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { replyId: string; starred: boolean }) =>
      data(client.PATCH("/replies/{id}/star", { params: { path: { id: v.replyId } }, body: { starred: v.starred } })),
    onSuccess: () => refreshInbox(queryClient),
  });
}

export function useRemind() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { replyId: string; remindAt: string | null }) =>
      data(client.PATCH("/replies/{id}/remind", { params: { path: { id: v.replyId } }, body: { remindAt: v.remindAt } })),
    onSuccess: () => refreshInbox(queryClient),
  });
}

export function useSendReply(leadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { replyId: string; input: SendInput }) =>
      data(client.POST("/replies/{id}/send", { params: { path: { id: v.replyId } }, body: v.input })),
    // A refused send still wrote the reply (FAILED, with the reason): the conversation shows it either way.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationKey(leadId) }),
        queryClient.invalidateQueries({ queryKey: [...INBOX_KEY, "threads"] }),
      ]),
  });
}

/** POST /replies/<id>/draft: one AI credit; in a campaign with a reply agent, the agent's grounded answer. */
export function useDraftReply() {
  return useMutation({
    mutationFn: (replyId: string) => data(client.POST("/replies/{id}/draft", { params: { path: { id: replyId } } })),
  });
}

export function useRetry(leadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sentReplyId: string) => data(client.POST("/replies/sent/{id}/retry", { params: { path: { id: sentReplyId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationKey(leadId) }),
  });
}

/** Forward a received message (with its files) from its mailbox; nothing in the inbox changes, so nothing is refetched. */
export function useForward() {
  return useMutation({
    mutationFn: (v: { replyId: string; input: ForwardInput }) =>
      data(client.POST("/replies/{id}/forward", { params: { path: { id: v.replyId } }, body: v.input })),
  });
}

/** PATCH /replies/thread/<leadId>/assign: to a member (not a client), or to nobody (null). */
export function useAssign(leadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string | null) =>
      data(client.PATCH("/replies/thread/{leadId}/assign", { params: { path: { leadId } }, body: { userId } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationKey(leadId) }),
        queryClient.invalidateQueries({ queryKey: [...INBOX_KEY, "threads"] }),
        queryClient.invalidateQueries({ queryKey: [...INBOX_KEY, "intent-counts"] }),
      ]),
  });
}

/**
 * The people a conversation can be assigned to: the workspace's members other than client seats.
 * Listing members is for owners and admins (`enabled`); others assign to themselves or to nobody.
 */
export function useAssignableMembers(enabled: boolean) {
  return useQuery({
    queryKey: [...INBOX_KEY, "members"],
    queryFn: ({ signal }) => data(client.GET("/account/members", { signal })).then((r) => r.members.filter((m) => m.role !== "client")),
    enabled,
    staleTime: 60_000,
  });
}
