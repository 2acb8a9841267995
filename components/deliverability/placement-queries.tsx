"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, fetchPlainPage } from "@/components/api-client";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import type { PlacementDetailView, PlacementTestView } from "@/lib/placement/schemas";

export type { PlacementDetailView, PlacementTestView };

/** While a test runs, its grid and the history poll this often (the job reads seeds every 30 s at most). */
const RUNNING_POLL_MS = 2_000;
const IDLE_POLL_MS = 30_000;

const KEY = ["placement-tests"] as const;

interface PlacementList {
  tests: PlacementTestView[];
  page: number;
  limit: number;
  total: number;
}

/** The mailboxes that can be tested: every mailbox but the seeds (a seed receives probes, never sends them). */
export function useSenderMailboxes() {
  return useQuery({
    queryKey: ["mailboxes", "placement-senders"],
    queryFn: ({ signal }) => fetchPlainPage<MailboxView>("/api/v1/mailboxes?limit=5000", signal),
    select: (p) => ({ senders: p.rows.filter((m) => !m.isSeed), seeds: p.rows.filter((m) => m.isSeed).length }),
  });
}

/** The test history, newest first; polled quickly while a test on the page is still running. */
export function usePlacementTests(page: number, limit: number) {
  return useQuery({
    queryKey: [...KEY, "list", { page, limit }],
    queryFn: ({ signal }) => apiFetch<PlacementList>(`/api/v1/placement-tests?page=${page}&limit=${limit}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.tests.some((t) => t.status === "RUNNING") ? RUNNING_POLL_MS : IDLE_POLL_MS),
  });
}

/** One test with its per-seed results, polled while RUNNING so the grid fills in as seeds are read. */
export function usePlacementTest(id: string | undefined) {
  return useQuery({
    queryKey: [...KEY, "one", id],
    queryFn: ({ signal }) => apiFetch<PlacementDetailView>(`/api/v1/placement-tests/${encodeURIComponent(id!)}`, { signal }),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.status === "RUNNING" ? RUNNING_POLL_MS : false),
  });
}

export interface Started {
  id: string;
  batchId: string;
  status: PlacementTestView["status"];
  seedCount: number;
}

/** POST /placement-tests; the history is refreshed once it answers. */
export function useStartPlacement(onStarted: (s: Started) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { mailboxId: string; subject?: string }) => apiFetch<Started>("/api/v1/placement-tests", { method: "POST", body }),
    onSuccess: async (s) => {
      onStarted(s);
      await client.invalidateQueries({ queryKey: KEY });
    },
  });
}
