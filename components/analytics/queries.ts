"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";

/** The answers' types, from the client generated from the OpenAPI document: a contract change is a type error here. */
export type OverviewData = ResponseOf<"/analytics/overview", "get">;
export type SeriesData = ResponseOf<"/analytics/timeseries", "get">;
export type MailboxStatsData = ResponseOf<"/analytics/mailbox-stats", "get">;
export type DomainStatsData = ResponseOf<"/analytics/domain-stats", "get">;
export type BounceData = ResponseOf<"/analytics/bounces", "get">;

/** The picked period as the API's query: `days=N`, or `from`/`to` (dates, `to` exclusive). */
export type PeriodPick = { days: number } | { from: string; to: string };

export function periodParams(p: PeriodPick): string {
  return "days" in p ? `days=${p.days}` : `from=${encodeURIComponent(p.from)}&to=${encodeURIComponent(p.to)}`;
}

const DAY_MS = 86_400_000;
/** Spec 8: a time series covers at most 90 days; a longer period's charts show its last 90. */
export const SERIES_MAX_DAYS = 90;

export function seriesParams(p: PeriodPick): { query: string; clipped: boolean } {
  if ("days" in p) return { query: `days=${Math.min(p.days, SERIES_MAX_DAYS)}`, clipped: p.days > SERIES_MAX_DAYS };
  const to = new Date(`${p.to}T00:00:00Z`).getTime();
  const from = new Date(`${p.from}T00:00:00Z`).getTime();
  if (to - from <= SERIES_MAX_DAYS * DAY_MS) return { query: periodParams(p), clipped: false };
  const start = new Date(to - SERIES_MAX_DAYS * DAY_MS).toISOString().slice(0, 10);
  return { query: periodParams({ from: start, to: p.to }), clipped: true };
}

/** Numbers move as mail goes out and replies come in. */
const POLL_MS = 30_000;

function useGet<T>(key: unknown[], path: string) {
  return useQuery({
    queryKey: ["analytics", ...key],
    queryFn: ({ signal }) => apiFetch<T>(path, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS,
  });
}

export const useAnalyticsOverview = (p: PeriodPick) =>
  useGet<OverviewData>(["overview", p], `/api/v1/analytics/overview?${periodParams(p)}`);

export function useSeries(p: PeriodPick) {
  const { query } = seriesParams(p);
  return useGet<SeriesData>(["series", query], `/api/v1/analytics/timeseries?${query}`);
}

export const useMailboxStats = (p: PeriodPick) =>
  useGet<MailboxStatsData>(["mailbox-stats", p], `/api/v1/analytics/mailbox-stats?${periodParams(p)}`);

export const useDomainStats = (p: PeriodPick) =>
  useGet<DomainStatsData>(["domain-stats", p], `/api/v1/analytics/domain-stats?${periodParams(p)}`);

export function useBounces(p: PeriodPick, kind: string, page: number, limit: number) {
  const k = kind ? `&kind=${kind}` : "";
  return useGet<BounceData>(
    ["bounces", p, kind, page, limit],
    `/api/v1/analytics/bounces?${periodParams(p)}${k}&page=${page}&limit=${limit}`,
  );
}
