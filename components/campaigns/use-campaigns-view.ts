"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { data, client } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { usePaging } from "@/components/ui/use-paging";
import { useSelection } from "@/components/ui/use-selection";
import { plural } from "./labels";
import { keys, useCampaigns, useFolders, type CampaignFilters } from "./queries";
import type { Campaign } from "./types";

const NO_FILTERS: Omit<CampaignFilters, "page" | "limit"> = { q: "", folder: undefined, statuses: [] };

export type RowAction = { kind: "duplicate" | "delete"; campaign: Campaign };

/**
 * The campaigns list's state: the search (applied 300 ms after typing stops), filters and page, the
 * selection, the open dialogs, the bulk archive call, the notice, and what the member's role allows.
 */
export function useCampaignsView() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const paging = usePaging(50, NO_FILTERS);
  const filters = paging.query;
  const campaigns = useCampaigns(filters);
  const folders = useFolders();
  const rows = campaigns.data?.rows ?? [];
  const total = campaigns.data?.total ?? 0;
  const selection = useSelection(rows, paging.scope);
  const [creating, setCreating] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [action, setAction] = useState<RowAction>();
  const [notice, setNotice] = useState<{ text: string; href?: string }>();

  // Search as the user types, but not one request per keystroke (filter sets state through an updater:
  // a stale one is fine, and an unchanged query keeps the page and the selection).
  // biome-ignore lint/correctness/useExhaustiveDependencies: paging.filter is an updater; only the typed search restarts the timer
  useEffect(() => {
    const t = setTimeout(() => paging.filter({ q: search }), 300);
    return () => clearTimeout(t);
  }, [search]);

  const archive = useMutation({
    mutationFn: (campaignIds: string[]) => data(client.POST("/campaigns/bulk-archive", { body: { campaignIds } })),
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: keys.list() });
      setArchiving(false);
      selection.clear();
      setNotice({
        text: `Archived ${plural(r.archived, "campaign")}.${r.notFound.length ? ` ${r.notFound.length} no longer existed.` : ""}`,
      });
    },
  });

  // A client seat reads campaigns only; deleting is for owners and admins (lib/roles.ts).
  const canWrite = useCan("member");
  const canDelete = useCan("admin");
  const filtered = !!filters.q || filters.folder !== undefined || filters.statuses.length > 0;

  return {
    search,
    setSearch,
    paging,
    filters,
    campaigns,
    folders,
    rows,
    total,
    selection,
    creating,
    setCreating,
    archiving,
    setArchiving,
    action,
    setAction,
    notice,
    setNotice,
    archive,
    canWrite,
    canDelete,
    filtered,
  };
}

export type CampaignsViewState = ReturnType<typeof useCampaignsView>;
