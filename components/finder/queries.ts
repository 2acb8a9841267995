"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { client, data, plainPage } from "@/components/api-client";
import type { BodyOf, ResponseOf } from "@/lib/client";

/** The answers' types, from the client generated from the OpenAPI document: a contract change is a type error here. */
export type SearchPage = ResponseOf<"/finder/search", "post">;
export type PersonView = SearchPage["people"][number];
export type EnrichJobView = ResponseOf<"/finder/enrich/jobs/{id}", "get">;
export type Facets = ResponseOf<"/finder/facets", "post">["facets"];
export type AddResult = ResponseOf<"/finder/enrich/jobs/{id}/add-to-leads", "post">;
/** The filters POST /finder/search and /finder/facets take. */
export type FinderFilters = NonNullable<BodyOf<"/finder/search", "post">["filters"]>;

/** A running enrichment job is polled this often for its progress bar. */
const JOB_POLL_MS = 1_000;

export function useSearch(filters: FinderFilters, page: number, limit: number) {
  return useQuery({
    queryKey: ["finder", "search", filters, page, limit],
    queryFn: ({ signal }) => data(client.POST("/finder/search", { body: { filters, page, limit }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useFacets(filters: FinderFilters) {
  return useQuery({
    queryKey: ["finder", "facets", filters],
    queryFn: ({ signal }) => data(client.POST("/finder/facets", { body: { filters, limit: 12 }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useAiSearch(onFilters: (f: FinderFilters) => void) {
  return useMutation({
    mutationFn: (query: string) => data(client.POST("/finder/ai-search", { body: { query } })),
    onSuccess: (r) => onFilters(r.filters),
  });
}

export function useStartEnrich(onStarted: (id: string) => void) {
  return useMutation({
    mutationFn: (personIds: string[]) => data(client.POST("/finder/enrich", { body: { personIds } })),
    onSuccess: (job) => onStarted(job.id),
  });
}

export function useEnrichJob(id: string | undefined) {
  return useQuery({
    queryKey: ["finder", "job", id],
    enabled: Boolean(id),
    queryFn: ({ signal }) => data(client.GET("/finder/enrich/jobs/{id}", { params: { path: { id: id ?? "" } }, signal })),
    refetchInterval: (q) => (q.state.data && !["QUEUED", "RUNNING"].includes(q.state.data.status) ? false : JOB_POLL_MS),
  });
}

export function useCancelEnrich() {
  return useMutation({ mutationFn: (id: string) => data(client.POST("/finder/enrich/jobs/{id}/cancel", { params: { path: { id } } })) });
}

export function useCampaigns() {
  return useQuery({
    queryKey: ["finder", "campaigns"],
    queryFn: ({ signal }) => plainPage(client.GET("/campaigns", { params: { query: { limit: 200 } }, signal })).then((p) => p.rows),
  });
}

export function useAddToLeads() {
  return useMutation({
    mutationFn: ({ jobId, campaignId }: { jobId: string; campaignId?: string }) =>
      data(
        client.POST("/finder/enrich/jobs/{id}/add-to-leads", {
          params: { path: { id: jobId } },
          body: campaignId ? { campaignId } : {},
        }),
      ),
  });
}
