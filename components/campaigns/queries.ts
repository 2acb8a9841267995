"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { client, data, plainPage } from "@/components/api-client";
import type { QueryOf } from "@/lib/client";
import type { Campaign } from "./types";

/**
 * Query keys: everything about one campaign sits under ["campaign", id], so a change (a step saved,
 * leads added, the pool changed) can refresh all of it with one invalidation; lists sit under ["campaigns"].
 */
export const keys = {
  list: (f?: CampaignFilters) => (f ? ["campaigns", f] : ["campaigns"]),
  campaign: (id: string) => ["campaign", id],
  part: (id: string, part: string, ...rest: unknown[]) => ["campaign", id, part, ...rest],
};

export interface CampaignFilters {
  q: string;
  /** undefined: any folder; "": campaigns without a folder (the API's empty filter). */
  folder?: string;
  statuses: string[];
  page: number;
  limit: number;
}

function listQuery(f: CampaignFilters): QueryOf<"/campaigns", "get"> {
  return {
    page: f.page,
    limit: f.limit,
    ...(f.q.trim() ? { q: f.q.trim() } : {}),
    ...(f.folder !== undefined ? { folder: f.folder } : {}),
    ...(f.statuses.length ? { status: f.statuses.join(",") } : {}),
  };
}

export function useCampaigns(f: CampaignFilters) {
  return useQuery({
    queryKey: keys.list(f),
    queryFn: ({ signal }) => plainPage(client.GET("/campaigns", { params: { query: listQuery(f) }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** Folder names in use, for the filter and the create dialog: from the newest 500 campaigns (the API's largest page). */
export function useFolders() {
  return useQuery({
    queryKey: keys.list({ q: "", statuses: [], page: 1, limit: 500 }),
    queryFn: ({ signal }) => plainPage(client.GET("/campaigns", { params: { query: { page: 1, limit: 500 } }, signal })),
    select: (p) => [...new Set(p.rows.map((c) => c.folder).filter((f): f is string => !!f))].sort((a, b) => a.localeCompare(b)),
  });
}

export function useCampaign(id: string) {
  return useQuery({
    queryKey: keys.campaign(id),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}", { params: { path: { id } }, signal })),
  });
}

export function useSettings(id: string) {
  return useQuery({
    queryKey: keys.part(id, "settings"),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/settings", { params: { path: { id } }, signal })),
  });
}

export function useSteps(id: string) {
  return useQuery({
    queryKey: keys.part(id, "steps"),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/steps", { params: { path: { id } }, signal })).then((r) => r.steps),
  });
}

/** The spam-word scan reads the saved steps, so it shares their freshness (refreshed with the campaign). */
export function useSpamWords(id: string) {
  return useQuery({
    queryKey: keys.part(id, "spam-words"),
    queryFn: ({ signal }) => data(client.POST("/campaigns/{id}/check-spam-words", { params: { path: { id } }, signal })),
  });
}

export function useAttachments(campaignId: string, stepId: string, enabled = true) {
  return useQuery({
    queryKey: keys.part(campaignId, "attachments", stepId),
    enabled,
    queryFn: ({ signal }) =>
      data(client.GET("/campaigns/{id}/steps/{stepId}/attachments", { params: { path: { id: campaignId, stepId } }, signal })).then(
        (r) => r.attachments,
      ),
  });
}

export function usePool(id: string) {
  return useQuery({
    queryKey: keys.part(id, "pool"),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/mailboxes", { params: { path: { id } }, signal })),
  });
}

export function useCampaignLeads(id: string, page: number, limit: number) {
  return useQuery({
    queryKey: keys.part(id, "leads", { page, limit }),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/leads", { params: { path: { id }, query: { page, limit } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** Always asked afresh: the report is only worth showing when it describes the campaign right now. */
export function useLaunchCheck(id: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.part(id, "launch-check"),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/launch-check", { params: { path: { id } }, signal })),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

/** The workspace's leads, for picking which to add (GET /leads: 200 per page at most). */
export function useWorkspaceLeads(q: string, page: number, limit: number) {
  return useQuery({
    queryKey: ["leads", { q, page, limit, verificationStatus: "", espClass: "", tagId: "" }],
    queryFn: ({ signal }) =>
      data(client.GET("/leads", { params: { query: { page, limit, ...(q.trim() ? { q: q.trim() } : {}) } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** Every mailbox of the workspace (GET /mailboxes answers up to 5,000 at once), for adding to the pool. */
export function useWorkspaceMailboxes(enabled: boolean) {
  return useQuery({
    queryKey: ["mailboxes", { page: 1, limit: 5000 }],
    queryFn: ({ signal }) => plainPage(client.GET("/mailboxes", { params: { query: { page: 1, limit: 5000 } }, signal })),
    enabled,
  });
}

export function useTags(enabled = true) {
  return useQuery({
    queryKey: ["tags"],
    queryFn: ({ signal }) => data(client.GET("/tags", { signal })).then((r) => r.tags),
    enabled,
  });
}

export interface ZoneOption {
  name: string;
  utcOffset: string;
}

/** Every IANA zone the API accepts, once each, with today's UTC offset (GET /timezones lists them by country). */
export function useTimezones() {
  return useQuery({
    queryKey: ["timezones", "with-offsets"],
    queryFn: async ({ signal }) => {
      const r = await data(client.GET("/timezones", { signal }));
      const byName = new Map<string, ZoneOption>();
      for (const c of r.countries) for (const z of c.timezones) byName.set(z.name, { name: z.name, utcOffset: z.utcOffset });
      return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
    staleTime: Infinity,
  });
}

/** After anything that changes a campaign: its parts and the list (stats, status) are refetched. */
export function useRefreshCampaign(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: keys.campaign(id) }), queryClient.invalidateQueries({ queryKey: keys.list() })]);
}

/**
 * After a status change: the answer is the campaign itself, shown at once (the badge and buttons must
 * not wait for every part of the page to refetch), then everything else refreshes behind it.
 */
export function useCampaignChanged(id: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshCampaign(id);
  return (c: Campaign) => {
    queryClient.setQueryData(keys.campaign(id), c);
    void refresh();
  };
}
