"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { client, data } from "@/components/api-client";
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
