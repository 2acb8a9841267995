"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiFetch, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { LeadView } from "@/lib/leads/schemas";
import { useTags } from "./queries";

/** Attach and detach tags on one lead; each change is saved at once (they are separate API calls). */
export function LeadTags({ lead }: { lead: LeadView }) {
  const queryClient = useQueryClient();
  const tags = useTags();
  const [name, setName] = useState("");
  const base = `/api/v1/leads/${encodeURIComponent(lead.id)}/tags`;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["lead", lead.id] }),
      queryClient.invalidateQueries({ queryKey: ["leads"] }),
      queryClient.invalidateQueries({ queryKey: ["tags"] }),
    ]);

  const attach = useMutation({
    mutationFn: (tagName: string) => apiFetch(base, { method: "POST", body: { name: tagName } }),
    onSuccess: async () => {
      setName("");
      await refresh();
    },
  });
  const detach = useMutation({
    mutationFn: (tagId: string) => apiFetch(`${base}/${encodeURIComponent(tagId)}`, { method: "DELETE" }),
    onSuccess: refresh,
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (name.trim()) attach.mutate(name.trim());
  }

  const error = attach.error ?? detach.error;
  const listId = `tag-names-${lead.id}`;
  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-gray-700">Tags</p>
      <div className="flex flex-wrap gap-1.5">
        {lead.tags.length === 0 && <span className="text-sm text-gray-500">No tags yet.</span>}
        {lead.tags.map((t) => (
          <Badge key={t.id} tone="indigo">
            {t.name}
            <button
              type="button"
              aria-label={`Remove tag ${t.name}`}
              disabled={detach.isPending}
              onClick={() => detach.mutate(t.id)}
              className="ml-0.5 rounded px-0.5 hover:bg-indigo-200"
            >
              ✕
            </button>
          </Badge>
        ))}
      </div>
      <form className="flex gap-2" onSubmit={submit}>
        <Input
          aria-label="Tag name"
          placeholder="Add a tag…"
          list={listId}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={100}
        />
        <datalist id={listId}>
          {tags.data
            ?.filter((t) => !lead.tags.some((x) => x.id === t.id))
            .map((t) => (
              <option key={t.id} value={t.name} />
            ))}
        </datalist>
        <Button type="submit" variant="secondary" disabled={!name.trim() || attach.isPending}>
          Add
        </Button>
      </form>
      {error && <Alert tone="error">{describeError(error)}</Alert>}
    </div>
  );
}
