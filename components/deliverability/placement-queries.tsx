"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { client, data, plainPage } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";

export type PlacementDetailView = ResponseOf<"/placement-tests/{id}", "get">;
export type PlacementTestView = ResponseOf<"/placement-tests", "get">["tests"][number];

/** While a test runs, its grid and the history poll this often (the job reads seeds every 30 s at most). */
const RUNNING_POLL_MS = 2_000;
const IDLE_POLL_MS = 30_000;

const KEY = ["placement-tests"] as const;

/** The mailboxes that can be tested: every mailbox but the seeds (a seed receives probes, never sends them). */
export function useSenderMailboxes() {
  return useQuery({
    queryKey: ["mailboxes", "placement-senders"],
    queryFn: ({ signal }) => plainPage(client.GET("/mailboxes", { params: { query: { limit: 5000 } }, signal })),
    select: (p) => ({ senders: p.rows.filter((m) => !m.isSeed), seeds: p.rows.filter((m) => m.isSeed).length }),
  });
}

/** The test history, newest first; polled quickly while a test on the page is still running. */
export function usePlacementTests(page: number, limit: number) {
  return useQuery({
    queryKey: [...KEY, "list", { page, limit }],
    queryFn: ({ signal }) => data(client.GET("/placement-tests", { params: { query: { page, limit } }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.tests.some((t) => t.status === "RUNNING") ? RUNNING_POLL_MS : IDLE_POLL_MS),
  });
}

/** One test with its per-seed results, polled while RUNNING so the grid fills in as seeds are read. */
export function usePlacementTest(id: string | undefined) {
  return useQuery({
    queryKey: [...KEY, "one", id],
    queryFn: ({ signal }) => data(client.GET("/placement-tests/{id}", { params: { path: { id: id! } }, signal })),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.status === "RUNNING" ? RUNNING_POLL_MS : false),
  });
}

export type Started = ResponseOf<"/placement-tests", "post">;

/** POST /placement-tests; the history is refreshed once it answers. */
export function useStartPlacement(onStarted: (s: Started) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { mailboxId: string; subject?: string }) => data(client.POST("/placement-tests", { body })),
    onSuccess: async (s) => {
      onStarted(s);
      await queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
}
