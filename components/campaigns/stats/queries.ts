"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { data, client } from "@/components/api-client";
import { keys } from "../queries";
import type { EmailStatus } from "./types";

/** How often the numbers of an ACTIVE campaign are asked again. */
export const LIVE_MS = 15_000;

/*
 * Every key sits under ["campaign", id], so a change to the campaign (a launch, a pause, leads added)
 * refreshes these with the rest of the page.
 */

/** The campaign's counts and rates and per step × variant results; live (every 15 s) while the campaign is ACTIVE. */
export function useCampaignStats(id: string, live: boolean) {
  return useQuery({
    queryKey: keys.part(id, "stats"),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/stats", { params: { path: { id } }, signal })),
    refetchInterval: live ? LIVE_MS : false,
  });
}

export function useTimeseries(id: string, days: number, live: boolean) {
  return useQuery({
    queryKey: keys.part(id, "timeseries", days),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/timeseries", { params: { path: { id }, query: { days } }, signal })),
    refetchInterval: live ? LIVE_MS : false,
    placeholderData: keepPreviousData,
  });
}

/** The forecast: it moves with every send, so an ACTIVE campaign's is asked again each minute. */
export function useSchedule(id: string, days: number, leads: number, live: boolean) {
  return useQuery({
    queryKey: keys.part(id, "schedule", { days, leads }),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/schedule", { params: { path: { id }, query: { days, leads } }, signal })),
    refetchInterval: live ? 60_000 : false,
    placeholderData: keepPreviousData,
  });
}

export function useActivity(id: string, f: { page: number; limit: number; status?: EmailStatus }, live: boolean) {
  return useQuery({
    queryKey: keys.part(id, "activity", f),
    queryFn: ({ signal }) => {
      const query = { page: f.page, limit: f.limit, ...(f.status ? { status: f.status } : {}) };
      return data(client.GET("/campaigns/{id}/activity", { params: { path: { id }, query }, signal }));
    },
    refetchInterval: live ? LIVE_MS : false,
    placeholderData: keepPreviousData,
  });
}
