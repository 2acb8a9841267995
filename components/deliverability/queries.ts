"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { client, data } from "@/components/api-client";
import type { BodyOf, ResponseOf } from "@/lib/client";

export type Overview = ResponseOf<"/deliverability/overview", "get">;
export type BlacklistJob = ResponseOf<"/blacklist/bulk-check/{jobId}", "get">;
export type BlacklistResult = ResponseOf<"/blacklist/bulk-check/{jobId}/results", "get">["results"][number];
export type AlertView = ResponseOf<"/deliverability/alerts", "get">["alerts"][number];

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
    queryFn: ({ signal }) => data(client.GET("/deliverability/overview", { signal })),
    refetchInterval: IDLE_POLL_MS,
  });
}

/** Open alerts (their condition still holds), newest first. */
export function useOpenAlerts(page: number, limit: number) {
  return useQuery({
    queryKey: [...keys.alerts, { page, limit }],
    queryFn: ({ signal }) => data(client.GET("/deliverability/alerts", { params: { query: { open: "true", page, limit } }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: IDLE_POLL_MS,
  });
}

export function useAcknowledge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(client.POST("/deliverability/alerts/{id}/ack", { params: { path: { id } } })),
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: keys.alerts }), queryClient.invalidateQueries({ queryKey: keys.overview })]),
  });
}

export type CheckBody = Pick<BodyOf<"/blacklist/bulk-check", "post">, "domains" | "ips">;

export function useStartCheck(onStarted: (jobId: string) => void) {
  return useMutation({
    mutationFn: (body: CheckBody) => data(client.POST("/blacklist/bulk-check", { body })),
    onSuccess: (r) => onStarted(r.jobId),
  });
}

const running = (j: BlacklistJob | undefined) => !j || j.status === "QUEUED" || j.status === "RUNNING";

/** The job, polled while it runs; when it ends, alerts and the overview are fetched again (the job may have raised some). */
export function useBlacklistJob(id: string | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: keys.job(id ?? ""),
    queryFn: async ({ signal }) => {
      const j = await data(client.GET("/blacklist/bulk-check/{jobId}", { params: { path: { jobId: id! } }, signal }));
      if (!running(j))
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: keys.alerts }),
          queryClient.invalidateQueries({ queryKey: keys.overview }),
        ]);
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
      data(
        client.GET("/blacklist/bulk-check/{jobId}/results", {
          params: { path: { jobId: id! }, query: { page, limit, ...(onlyListed ? { listed: "true" as const } : {}) } },
          signal,
        }),
      ),
    enabled: !!id,
    placeholderData: keepPreviousData,
  });
}
