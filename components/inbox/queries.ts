"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { apiFetch, fetchPlainPage } from "@/components/api-client";
import { INTENT_ORDER } from "./labels";
import type { Conversation, Intent, MarkRead, ReplyView, RetryResult, SendInput, SendResult, ThreadPage, UnreadCount } from "./types";

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
 * How many conversations each intent chip would show with the other filters as they are: one
 * `limit=1` call per intent, of which only `total` is read.
 */
export function useIntentCounts(f: Pick<ThreadFilters, "unread" | "starred" | "campaignId">) {
  return useQuery({
    queryKey: [...INBOX_KEY, "intent-counts", f],
    queryFn: async ({ signal }) => {
      const totals = await Promise.all(
        (["", ...INTENT_ORDER] as const).map((intent) => apiFetch<ThreadPage>(threadsPath({ ...f, intent }, 1, 1), { signal }).then((r) => [intent, r.total] as const)),
      );
      return Object.fromEntries(totals) as Record<Intent | "", number>;
    },
    placeholderData: keepPreviousData,
    refetchInterval: LIST_POLL_MS * 2,
  });
}

export function useUnreadCount() {
  return useQuery({
    queryKey: [...INBOX_KEY, "unread"],
    queryFn: ({ signal }) => apiFetch<UnreadCount>("/api/v1/replies/unread-count", { signal }),
    refetchInterval: LIST_POLL_MS,
  });
}

/** Campaigns for the campaign filter (names only). */
export function useCampaignOptions() {
  return useQuery({
    queryKey: [...INBOX_KEY, "campaigns"],
    queryFn: ({ signal }) => fetchPlainPage<{ id: string; name: string; status: string }>("/api/v1/campaigns?limit=500", signal).then((p) => p.rows),
    staleTime: 60_000,
  });
}

export function conversationKey(leadId: string) {
  return [...INBOX_KEY, "conversation", leadId] as const;
}

export function useConversation(leadId: string | undefined) {
  return useQuery({
    queryKey: conversationKey(leadId ?? ""),
    queryFn: ({ signal }) => apiFetch<Conversation>(`/api/v1/replies/thread/${encodeURIComponent(leadId!)}`, { signal }),
    enabled: !!leadId,
    // Replies being sent in the background are watched closely; otherwise new messages show within the list's pace.
    refetchInterval: (q) => (q.state.data?.messages.some((m) => m.direction === "outbound" && m.kind === "reply" && m.status === "SENDING") ? SENDING_POLL_MS : LIST_POLL_MS),
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
    mutationFn: (v: { replyId: string; starred: boolean }) => apiFetch<ReplyView>(`/api/v1/replies/${encodeURIComponent(v.replyId)}/star`, { method: "PATCH", body: { starred: v.starred } }),
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
    mutationFn: (v: { replyId: string; input: SendInput }) => apiFetch<SendResult>(`/api/v1/replies/${encodeURIComponent(v.replyId)}/send`, { method: "POST", body: v.input }),
    // A refused send still wrote the reply (FAILED, with the reason): the conversation shows it either way.
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: conversationKey(leadId) }), queryClient.invalidateQueries({ queryKey: [...INBOX_KEY, "threads"] })]),
  });
}

export function useRetry(leadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sentReplyId: string) => apiFetch<RetryResult>(`/api/v1/replies/sent/${encodeURIComponent(sentReplyId)}/retry`, { method: "POST" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationKey(leadId) }),
  });
}
