"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import type { AlertView } from "@/lib/deliverability/alerts-list";
import type { getBlacklistJob, listBlacklistResults } from "@/lib/deliverability/blacklist";
import type { deliverabilityOverview } from "@/lib/deliverability/overview";

export type Overview = Awaited<ReturnType<typeof deliverabilityOverview>>;
export type BlacklistJob = Awaited<ReturnType<typeof getBlacklistJob>>;
export type BlacklistResult = Awaited<ReturnType<typeof listBlacklistResults>>["results"][number];
export type { AlertView };

/** Overview and alerts refresh on their own every so often: jobs in the background raise and resolve alerts. */
const IDLE_POLL_MS = 30_000;
/** A running blacklist check is polled this often for its progress bar. */
const JOB_POLL_MS = 1_000;

const keys = {
  overview: ["deliverability", "overview"] as const,
  alerts: ["deliverability", "alerts"] as const,
  job: (id: string) => ["deliverability", "blacklist", id] as const,
};

export function useOverview() {
  return useQuery({
    queryKey: keys.overview,
    queryFn: ({ signal }) => apiFetch<Overview>("/api/v1/deliverability/overview", { signal }),
    refetchInterval: IDLE_POLL_MS,
  });
}

/** Open alerts (their condition still holds), newest first. */
export function useOpenAlerts(page: number, limit: number) {
  return useQuery({
    queryKey: [...keys.alerts, { page, limit }],
    queryFn: ({ signal }) =>
      apiFetch<{ alerts: AlertView[]; page: number; limit: number; total: number }>(
        `/api/v1/deliverability/alerts?open=true&page=${page}&limit=${limit}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: IDLE_POLL_MS,
  });
}

export function useAcknowledge() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<AlertView>(`/api/v1/deliverability/alerts/${encodeURIComponent(id)}/ack`, { method: "POST" }),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: keys.alerts }), client.invalidateQueries({ queryKey: keys.overview })]),
  });
}

export interface CheckBody {
  domains?: string[];
  ips?: string[];
}

export function useStartCheck(onStarted: (jobId: string) => void) {
  return useMutation({
    mutationFn: (body: CheckBody) => apiFetch<{ jobId: string; status: string }>("/api/v1/blacklist/bulk-check", { method: "POST", body }),
    onSuccess: (r) => onStarted(r.jobId),
  });
}

const running = (j: BlacklistJob | undefined) => !j || j.status === "QUEUED" || j.status === "RUNNING";

/** The job, polled while it runs; when it ends, alerts and the overview are fetched again (the job may have raised some). */
export function useBlacklistJob(id: string | undefined) {
  const client = useQueryClient();
  return useQuery({
    queryKey: keys.job(id ?? ""),
    queryFn: async ({ signal }) => {
      const j = await apiFetch<BlacklistJob>(`/api/v1/blacklist/bulk-check/${encodeURIComponent(id!)}`, { signal });
      if (!running(j))
        await Promise.all([client.invalidateQueries({ queryKey: keys.alerts }), client.invalidateQueries({ queryKey: keys.overview })]);
      return j;
    },
    enabled: !!id,
    refetchInterval: (q) => (running(q.state.data) ? JOB_POLL_MS : false),
  });
}

export function useBlacklistResults(id: string | undefined, page: number, limit: number, onlyListed: boolean, done: number) {
  return useQuery({
    // `done` in the key: the table follows the job's progress.
    queryKey: [...keys.job(id ?? ""), "results", { page, limit, onlyListed, done }],
    queryFn: ({ signal }) =>
      apiFetch<{ results: BlacklistResult[]; page: number; limit: number; total: number }>(
        `/api/v1/blacklist/bulk-check/${encodeURIComponent(id!)}/results?page=${page}&limit=${limit}${onlyListed ? "&listed=true" : ""}`,
        { signal },
      ),
    enabled: !!id,
    placeholderData: keepPreviousData,
  });
}
