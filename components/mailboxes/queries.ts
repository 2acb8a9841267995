"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import { apiRequest, fetchPlainPage } from "./api";

export interface MailboxIssue {
  mailboxId: string;
  email: string;
  kind: "LOGIN_FAILING" | "READ_FAILING" | "AUTO_PAUSED";
  since: string;
  detail: string | null;
  fix: string;
}

/** Health changes in the background (the periodic login check), so the page looks again now and then. */
const REFRESH_MS = 30_000;

export function useMailboxes(page: number, limit: number) {
  return useQuery({
    queryKey: ["mailboxes", { page, limit }],
    queryFn: ({ signal }) => fetchPlainPage<MailboxView>(`/api/v1/mailboxes?page=${page}&limit=${limit}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

export function useMailboxIssues() {
  return useQuery({
    queryKey: ["mailboxes", "issues"],
    queryFn: ({ signal }) =>
      apiRequest<{ mailboxes: number; issues: MailboxIssue[] }>("/api/v1/mailboxes/issues", { signal }).then((r) => r.data),
    refetchInterval: REFRESH_MS,
  });
}
