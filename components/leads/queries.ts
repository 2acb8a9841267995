"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { client, data, plainPage } from "@/components/api-client";
import type { QueryOf, ResponseOf } from "@/lib/client";

type LeadsQuery = QueryOf<"/leads", "get">;
export type LeadView = ResponseOf<"/leads/{id}", "get">;

export interface LeadFilters {
  q: string;
  verificationStatus: string;
  espClass: string;
  tagId: string;
  page: number;
  limit: number;
}

export type LeadPage = ResponseOf<"/leads", "get">;

/** The filters as GET /leads takes them; the selects offer only the contract's values. */
function leadsQuery(f: LeadFilters): LeadsQuery {
  return {
    page: f.page,
    limit: f.limit,
    ...(f.q.trim() ? { q: f.q.trim() } : {}),
    ...(f.verificationStatus ? { verificationStatus: f.verificationStatus as LeadsQuery["verificationStatus"] } : {}),
    ...(f.espClass ? { espClass: f.espClass as LeadsQuery["espClass"] } : {}),
    ...(f.tagId ? { tagId: f.tagId } : {}),
  };
}

export function useLeads(f: LeadFilters) {
  return useQuery({
    queryKey: ["leads", f],
    queryFn: ({ signal }) => data(client.GET("/leads", { params: { query: leadsQuery(f) }, signal })),
    // Keep the current rows on screen while the next page or filter loads.
    placeholderData: keepPreviousData,
  });
}

export function useLead(initial: LeadView) {
  return useQuery({
    queryKey: ["lead", initial.id],
    queryFn: ({ signal }) => data(client.GET("/leads/{id}", { params: { path: { id: initial.id } }, signal })),
    initialData: initial,
  });
}

/** One lead by id, for its page (the same cache entry the edit dialog updates). */
export function useLeadById(id: string) {
  return useQuery({
    queryKey: ["lead", id],
    queryFn: ({ signal }) => data(client.GET("/leads/{id}", { params: { path: { id } }, signal })),
  });
}

export type TimelinePage = ResponseOf<"/leads/{id}/timeline", "get">;
export type TimelineEvent = TimelinePage["events"][number];

/** A page of the lead's timeline, newest first; kept on screen while the next page loads. */
export function useLeadTimeline(id: string, page: number, limit: number) {
  return useQuery({
    queryKey: ["lead", id, "timeline", page, limit],
    queryFn: ({ signal }) => data(client.GET("/leads/{id}/timeline", { params: { path: { id }, query: { page, limit } }, signal })),
    placeholderData: keepPreviousData,
  });
}

export type LeadCampaign = ResponseOf<"/leads/{id}/campaigns", "get">["campaigns"][number];

export function useLeadCampaigns(id: string) {
  return useQuery({
    queryKey: ["lead", id, "campaigns"],
    queryFn: ({ signal }) => data(client.GET("/leads/{id}/campaigns", { params: { path: { id } }, signal })).then((r) => r.campaigns),
  });
}

/** Campaigns to add leads to (names and statuses), newest first. */
export function useCampaignChoices(enabled = true) {
  return useQuery({
    queryKey: ["campaigns", "choices"],
    queryFn: ({ signal }) => plainPage(client.GET("/campaigns", { params: { query: { limit: 500 } }, signal })).then((p) => p.rows),
    staleTime: 60_000,
    enabled,
  });
}

export function useTags() {
  return useQuery({
    queryKey: ["tags"],
    queryFn: ({ signal }) => data(client.GET("/tags", { signal })).then((r) => r.tags),
  });
}

/** Every IANA zone the API accepts, for the timezone field's suggestions. */
export function useTimezoneNames() {
  return useQuery({
    queryKey: ["timezones"],
    queryFn: ({ signal }) =>
      data(client.GET("/timezones", { signal })).then((r) =>
        [...new Set(r.countries.flatMap((c) => c.timezones.map((t) => t.name)))].sort(),
      ),
    staleTime: Infinity,
  });
}
