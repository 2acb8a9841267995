"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { data, client } from "@/components/api-client";
import { useRefreshCampaign, useWorkspaceLeads } from "./queries";
import type { AddLeadsResult } from "./types";

const BATCH = 1000; // POST /campaigns/<id>/leads takes up to 1,000 ids per call

export type Outcome = { results: AddLeadsResult["results"]; added: number };

/** Adds the picked leads in batches the API accepts, keeping every per-lead result. */
async function addInBatches(campaignId: string, ids: string[]): Promise<Outcome> {
  const out: Outcome = { results: [], added: 0 };
  for (let i = 0; i < ids.length; i += BATCH) {
    const r = await data(
      client.POST("/campaigns/{id}/leads", { params: { path: { id: campaignId } }, body: { leadIds: ids.slice(i, i + BATCH) } }),
    );
    out.results.push(...r.results);
    out.added += r.added;
  }
  return out;
}

/**
 * The add-leads dialog's state: the search (applied 300 ms after typing stops, back to page 1), the page,
 * the leads picked so far (id → email, kept across pages and searches) and the add call.
 */
export function useAddLeads(campaignId: string) {
  const refresh = useRefreshCampaign(campaignId);
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  const [paging, setPaging] = useState({ page: 1, limit: 50 });
  const leads = useWorkspaceLeads(q, paging.page, paging.limit);
  const [picked, setPicked] = useState<Map<string, string>>(new Map());
  const add = useMutation({ mutationFn: () => addInBatches(campaignId, [...picked.keys()]), onSuccess: () => refresh() });

  useEffect(() => {
    const t = setTimeout(() => {
      setQ(search);
      setPaging((p) => ({ ...p, page: 1 }));
    }, 300);
    return () => clearTimeout(t);
  }, [search]);

  const rows = leads.data?.leads ?? [];
  const allPicked = rows.length > 0 && rows.every((r) => picked.has(r.id));

  function toggle(id: string, email: string) {
    setPicked((m) => {
      const n = new Map(m);
      if (n.has(id)) n.delete(id);
      else n.set(id, email);
      return n;
    });
  }
  function togglePage() {
    setPicked((m) => {
      const n = new Map(m);
      for (const r of rows) {
        if (allPicked) n.delete(r.id);
        else n.set(r.id, r.email);
      }
      return n;
    });
  }

  return { search, setSearch, q, paging, setPaging, leads, rows, picked, allPicked, toggle, togglePage, add };
}

export type AddLeadsState = ReturnType<typeof useAddLeads>;
