"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { data, client } from "@/components/api-client";
import type { QueryOf, ResponseOf } from "@/lib/client";

/** The answers' types, from the client generated from the OpenAPI document: a contract change is a type error here. */
export type OverviewData = ResponseOf<"/analytics/overview", "get">;
export type SeriesData = ResponseOf<"/analytics/timeseries", "get">;
export type MailboxStatsData = ResponseOf<"/analytics/mailbox-stats", "get">;
export type DomainStatsData = ResponseOf<"/analytics/domain-stats", "get">;
export type BounceData = ResponseOf<"/analytics/bounces", "get">;
export type BounceKind = NonNullable<QueryOf<"/analytics/bounces", "get">["kind"]>;

/** The picked period as the API's query: `days=N`, or `from`/`to` (dates, `to` exclusive). */
export type PeriodPick = { days: number } | { from: string; to: string };

/** The period as a query string, for the CSV report's download link (a link, not a fetch). */
export function periodParams(p: PeriodPick): string {
  return "days" in p ? `days=${p.days}` : `from=${encodeURIComponent(p.from)}&to=${encodeURIComponent(p.to)}`;
}

/** The period as the typed client's query parameters. */
export function periodQuery(p: PeriodPick): { days: number } | { from: string; to: string } {
  return "days" in p ? { days: p.days } : { from: p.from, to: p.to };
}

const DAY_MS = 86_400_000;
/** A time series covers at most 90 days; a longer period's charts show its last 90. */
export const SERIES_MAX_DAYS = 90;

export function seriesParams(p: PeriodPick): { period: PeriodPick; clipped: boolean } {
  if ("days" in p) return { period: { days: Math.min(p.days, SERIES_MAX_DAYS) }, clipped: p.days > SERIES_MAX_DAYS };
  const to = new Date(`${p.to}T00:00:00Z`).getTime();
  const from = new Date(`${p.from}T00:00:00Z`).getTime();
  if (to - from <= SERIES_MAX_DAYS * DAY_MS) return { period: p, clipped: false };
  const start = new Date(to - SERIES_MAX_DAYS * DAY_MS).toISOString().slice(0, 10);
  return { period: { from: start, to: p.to }, clipped: true };
}

/** Numbers move as mail goes out and replies come in. */
const POLL_MS = 30_000;

function useGet<T>(key: unknown[], get: (signal: AbortSignal) => Promise<T>) {
  return useQuery({
    queryKey: ["analytics", ...key],
    queryFn: ({ signal }) => get(signal),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS,
  });
}

export const useAnalyticsOverview = (p: PeriodPick) =>
  useGet(["overview", p], (signal) => data(client.GET("/analytics/overview", { params: { query: periodQuery(p) }, signal })));

export function useSeries(p: PeriodPick) {
  const { period } = seriesParams(p);
  return useGet(["series", period], (signal) =>
    data(client.GET("/analytics/timeseries", { params: { query: periodQuery(period) }, signal })),
  );
}

export const useMailboxStats = (p: PeriodPick) =>
  useGet(["mailbox-stats", p], (signal) => data(client.GET("/analytics/mailbox-stats", { params: { query: periodQuery(p) }, signal })));

export const useDomainStats = (p: PeriodPick) =>
  useGet(["domain-stats", p], (signal) => data(client.GET("/analytics/domain-stats", { params: { query: periodQuery(p) }, signal })));

export function useBounces(p: PeriodPick, kind: BounceKind | "", page: number, limit: number) {
  const query = { ...periodQuery(p), ...(kind ? { kind } : {}), page, limit };
  return useGet(["bounces", p, kind, page, limit], (signal) => data(client.GET("/analytics/bounces", { params: { query }, signal })));
}
