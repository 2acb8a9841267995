"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { apiFetch, client, data, plainPage } from "@/components/api-client";
import type {
  ForwardInput,
  ForwardResult,
  IntentCounts,
  Intent,
  MarkRead,
  ReplyView,
  RetryResult,
  SendInput,
  SendResult,
  ThreadPage,
} from "./types";

export const INBOX_KEY = ["inbox"] as const;

/** New replies come in through the IMAP sync in the background: the list looks again this often. */
const LIST_POLL_MS = 15_000;
/** A reply being sent in the background: looked at every 2 s until it is SENT or FAILED. */
const SENDING_POLL_MS = 2_000;

export interface ThreadFilters {
  intent: Intent | "";
  unread: boolean;
  starred: boolean;
  campaignId: string;
  page: number;
  limit: number;
}

function threadsPath(f: Omit<ThreadFilters, "page" | "limit">, page: number, limit: number): string {
  const p = new URLSearchParams({ page: String(page), limit: String(limit) });
  if (f.intent) p.set("intent", f.intent);
  if (f.unread) p.set("unread", "true");
  if (f.starred) p.set("starred", "true");
  if (f.campaignId) p.set("campaignId", f.campaignId);
  return `/api/v1/replies/threads?${p}`;
}

export function useThreads(f: ThreadFilters) {
  return useQuery({
    queryKey: [...INBOX_KEY, "threads", f],
    queryFn: ({ signal }) => apiFetch<ThreadPage>(threadsPath(f, f.page, f.limit), { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: LIST_POLL_MS,
  });
}

/**
 * How many conversations each intent chip would show with the other filters as they are, plus all
 * and unread ones: one GET /replies/intent-counts.
 */
export function useIntentCounts(f: Pick<ThreadFilters, "unread" | "starred" | "campaignId">) {
  const p = new URLSearchParams();
  if (f.unread) p.set("unread", "true");
  if (f.starred) p.set("starred", "true");
  if (f.campaignId) p.set("campaignId", f.campaignId);
  const qs = p.toString();
  return useQuery({
    queryKey: [...INBOX_KEY, "intent-counts", f],
    queryFn: ({ signal }) => apiFetch<IntentCounts>(`/api/v1/replies/intent-counts${qs ? `?${qs}` : ""}`, { signal }),
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
    mutationFn: (leadId: string) => apiFetch<MarkRead>(`/api/v1/replies/thread/${encodeURIComponent(leadId)}/read`, { method: "POST" }),
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
      apiFetch<ReplyView>(`/api/v1/replies/${encodeURIComponent(v.replyId)}/star`, { method: "PATCH", body: { starred: v.starred } }),
    onSuccess: () => refreshInbox(queryClient),
  });
}

export function useRemind() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { replyId: string; remindAt: string | null }) =>
      apiFetch<ReplyView>(`/api/v1/replies/${encodeURIComponent(v.replyId)}/remind`, { method: "PATCH", body: { remindAt: v.remindAt } }),
    onSuccess: () => refreshInbox(queryClient),
  });
}

export function useSendReply(leadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { replyId: string; input: SendInput }) =>
      apiFetch<SendResult>(`/api/v1/replies/${encodeURIComponent(v.replyId)}/send`, { method: "POST", body: v.input }),
    // A refused send still wrote the reply (FAILED, with the reason): the conversation shows it either way.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationKey(leadId) }),
        queryClient.invalidateQueries({ queryKey: [...INBOX_KEY, "threads"] }),
      ]),
  });
}

/** POST /replies/<id>/draft: one AI credit; in a campaign with a reply agent, the agent's grounded answer. */
export interface DraftResult {
  draft: { body: string; to: { name: string | null; address: string }[] };
  provider: string;
  creditsRemaining: number;
  agent: { id: string; name: string } | null;
}

export function useDraftReply() {
  return useMutation({
    mutationFn: (replyId: string) => apiFetch<DraftResult>(`/api/v1/replies/${encodeURIComponent(replyId)}/draft`, { method: "POST" }),
  });
}

export function useRetry(leadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sentReplyId: string) =>
      apiFetch<RetryResult>(`/api/v1/replies/sent/${encodeURIComponent(sentReplyId)}/retry`, { method: "POST" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationKey(leadId) }),
  });
}

/** Forward a received message (with its files) from its mailbox; nothing in the inbox changes, so nothing is refetched. */
export function useForward() {
  return useMutation({
    mutationFn: (v: { replyId: string; input: ForwardInput }) =>
      apiFetch<ForwardResult>(`/api/v1/replies/${encodeURIComponent(v.replyId)}/forward`, { method: "POST", body: v.input }),
  });
}
