"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { type LeadView, useTags } from "./queries";

/** Attach and detach tags on one lead; each change is saved at once (they are separate API calls). */
export function LeadTags({ lead }: { lead: LeadView }) {
  const queryClient = useQueryClient();
  const tags = useTags();
  const [name, setName] = useState("");

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["lead", lead.id] }),
      queryClient.invalidateQueries({ queryKey: ["leads"] }),
      queryClient.invalidateQueries({ queryKey: ["tags"] }),
    ]);

  const attach = useMutation({
    mutationFn: (tagName: string) =>
      data(client.POST("/leads/{leadId}/tags", { params: { path: { leadId: lead.id } }, body: { name: tagName } })),
    onSuccess: async () => {
      setName("");
      await refresh();
    },
  });
  const detach = useMutation({
    mutationFn: (tagId: string) => data(client.DELETE("/leads/{leadId}/tags/{tagId}", { params: { path: { leadId: lead.id, tagId } } })),
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
