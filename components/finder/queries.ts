"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import type { addJobToLeads } from "@/lib/finder/add-to-leads";
import type { EnrichJobView } from "@/lib/finder/enrich-jobs";
import type { FacetName, FinderFilters } from "@/lib/finder/schemas";
import type { PersonView } from "@/lib/finder/search";

export type { EnrichJobView, FacetName, FinderFilters, PersonView };
export type Facets = Partial<Record<FacetName, { value: string; count: number }[]>>;
export type AddResult = Awaited<ReturnType<typeof addJobToLeads>>;

/** A running enrichment job is polled this often for its progress bar. */
const JOB_POLL_MS = 1_000;
const post = <T>(path: string, body: unknown) => apiFetch<T>(`/api/v1${path}`, { method: "POST", body });

export function useSearch(filters: FinderFilters, page: number, limit: number) {
  return useQuery({
    queryKey: ["finder", "search", filters, page, limit],
    queryFn: () => post<{ people: PersonView[]; page: number; limit: number; total: number }>("/finder/search", { filters, page, limit }),
    placeholderData: keepPreviousData,
  });
}

export function useFacets(filters: FinderFilters) {
  return useQuery({
    queryKey: ["finder", "facets", filters],
    queryFn: () => post<{ facets: Facets }>("/finder/facets", { filters, limit: 12 }),
    placeholderData: keepPreviousData,
  });
}

export function useAiSearch(onFilters: (f: FinderFilters) => void) {
  return useMutation({
    mutationFn: (query: string) => post<{ filters: FinderFilters; total: number; source: "ai" | "rules" }>("/finder/ai-search", { query }),
    onSuccess: (r) => onFilters(r.filters),
  });
}

export function useStartEnrich(onStarted: (id: string) => void) {
  return useMutation({
    mutationFn: (personIds: string[]) => post<EnrichJobView>("/finder/enrich", { personIds }),
    onSuccess: (job) => onStarted(job.id),
  });
}

export function useEnrichJob(id: string | undefined) {
  return useQuery({
    queryKey: ["finder", "job", id],
    enabled: Boolean(id),
    queryFn: ({ signal }) => apiFetch<EnrichJobView>(`/api/v1/finder/enrich/jobs/${encodeURIComponent(id ?? "")}`, { signal }),
    refetchInterval: (q) => (q.state.data && !["QUEUED", "RUNNING"].includes(q.state.data.status) ? false : JOB_POLL_MS),
  });
}

export function useCancelEnrich() {
  return useMutation({ mutationFn: (id: string) => post<EnrichJobView>(`/finder/enrich/jobs/${encodeURIComponent(id)}/cancel`, {}) });
}

export function useCampaigns() {
  return useQuery({
    queryKey: ["finder", "campaigns"],
    queryFn: ({ signal }) => apiFetch<{ id: string; name: string; status: string }[]>("/api/v1/campaigns?limit=200", { signal }),
  });
}

export function useAddToLeads() {
  return useMutation({
    mutationFn: ({ jobId, campaignId }: { jobId: string; campaignId?: string }) =>
      post<AddResult>(`/finder/enrich/jobs/${encodeURIComponent(jobId)}/add-to-leads`, campaignId ? { campaignId } : {}),
  });
}
