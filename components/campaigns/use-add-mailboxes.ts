"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, data, client } from "@/components/api-client";
import { plural } from "./labels";
import { useRefreshCampaign, useTags, useWorkspaceMailboxes } from "./queries";

export type Mode = "manual" | "tag" | "random";
type SelectBody =
  | { mode: "manual"; mailboxIds: string[] }
  | { mode: "tag"; tagIds: string[] }
  | { mode: "random"; count: number; tagIds?: string[] };

export function toggled<T>(s: Set<T>, v: T): Set<T> {
  const n = new Set(s);
  if (n.has(v)) n.delete(v);
  else n.add(v);
  return n;
}

/**
 * The add-mailboxes dialog's state: the mode, the search and picks, the tags, the random count, the
 * workspace mailboxes not in the pool yet, and the call to mailboxes/select that reports back through `onDone`.
 */
export function useAddMailboxes(campaignId: string, inPool: Set<string>, onDone: (message: string) => void) {
  const refresh = useRefreshCampaign(campaignId);
  const mailboxes = useWorkspaceMailboxes(true);
  const tags = useTags();
  const [mode, setMode] = useState<Mode>("manual");
  const [search, setSearch] = useState("");
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [tagIds, setTagIds] = useState<Set<string>>(new Set());
  const [count, setCount] = useState("1");

  const select = useMutation({
    mutationFn: (body: SelectBody) => data(client.POST("/campaigns/{id}/mailboxes/select", { params: { path: { id: campaignId } }, body })),
    onSuccess: async (r) => {
      await refresh();
      const missing = r.notFound.length ? ` ${r.notFound.length} no longer existed.` : "";
      onDone(`Added ${plural(r.added, "mailbox", "mailboxes")} to the pool (now ${r.poolSize}).${missing}`);
    },
  });
  const fieldErrors = select.error instanceof ApiError ? select.error.fieldErrors : {};

  const all = mailboxes.data?.rows ?? [];
  const candidates = all.filter(
    (m) => !inPool.has(m.id) && (!search.trim() || m.email.toLowerCase().includes(search.trim().toLowerCase())),
  );
  const tagged = (id: string) => all.filter((m) => m.tags.some((t) => t.id === id)).length;

  function submit() {
    if (mode === "manual") select.mutate({ mode, mailboxIds: [...picked] });
    else if (mode === "tag") select.mutate({ mode, tagIds: [...tagIds] });
    else select.mutate({ mode, count: Number(count), ...(tagIds.size ? { tagIds: [...tagIds] } : {}) });
  }
  const ready = mode === "manual" ? picked.size > 0 : mode === "tag" ? tagIds.size > 0 : Number(count) >= 1;

  return {
    mailboxes,
    tags,
    mode,
    setMode,
    search,
    setSearch,
    picked,
    setPicked,
    tagIds,
    setTagIds,
    count,
    setCount,
    select,
    fieldErrors,
    all,
    candidates,
    tagged,
    submit,
    ready,
  };
}

export type AddMailboxesState = ReturnType<typeof useAddMailboxes>;
