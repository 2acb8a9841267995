"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import type { LeadView } from "@/lib/leads/schemas";
import type { TagView } from "@/lib/tags/tags";

export interface LeadFilters {
  q: string;
  verificationStatus: string;
  espClass: string;
  tagId: string;
  page: number;
  limit: number;
}

export interface LeadPage {
  leads: LeadView[];
  page: number;
  limit: number;
  total: number;
}

function leadsPath(f: LeadFilters): string {
  const p = new URLSearchParams({ page: String(f.page), limit: String(f.limit) });
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.verificationStatus) p.set("verificationStatus", f.verificationStatus);
  if (f.espClass) p.set("espClass", f.espClass);
  if (f.tagId) p.set("tagId", f.tagId);
  return `/api/v1/leads?${p}`;
}

export function useLeads(f: LeadFilters) {
  return useQuery({
    queryKey: ["leads", f],
    queryFn: ({ signal }) => apiFetch<LeadPage>(leadsPath(f), { signal }),
    // Keep the current rows on screen while the next page or filter loads.
    placeholderData: keepPreviousData,
  });
}

export function useLead(initial: LeadView) {
  return useQuery({
    queryKey: ["lead", initial.id],
    queryFn: ({ signal }) => apiFetch<LeadView>(`/api/v1/leads/${encodeURIComponent(initial.id)}`, { signal }),
    initialData: initial,
  });
}

export function useTags() {
  return useQuery({
    queryKey: ["tags"],
    queryFn: ({ signal }) => apiFetch<{ tags: TagView[] }>("/api/v1/tags", { signal }).then((r) => r.tags),
  });
}

interface TimezoneCountry {
  timezones: { name: string }[];
}

/** Every IANA zone the API accepts, for the timezone field's suggestions. */
export function useTimezoneNames() {
  return useQuery({
    queryKey: ["timezones"],
    queryFn: ({ signal }) =>
      apiFetch<{ countries: TimezoneCountry[] }>("/api/v1/timezones", { signal }).then((r) =>
        [...new Set(r.countries.flatMap((c) => c.timezones.map((t) => t.name)))].sort(),
      ),
    staleTime: Infinity,
  });
}
