"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { client, data, plainPage } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";

export type MailboxIssue = ResponseOf<"/mailboxes/issues", "get">["issues"][number];

/** Health changes in the background (the periodic login check), so the page looks again now and then. */
const REFRESH_MS = 30_000;

export function useMailboxes(page: number, limit: number) {
  return useQuery({
    queryKey: ["mailboxes", { page, limit }],
    queryFn: ({ signal }) => plainPage(client.GET("/mailboxes", { params: { query: { page, limit } }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

export function useMailboxIssues() {
  return useQuery({
    queryKey: ["mailboxes", "issues"],
    queryFn: ({ signal }) => data(client.GET("/mailboxes/issues", { signal })),
    refetchInterval: REFRESH_MS,
  });
}
