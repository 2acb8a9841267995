"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, describeError, data, client } from "@/components/api-client";
import { HEALTH } from "@/components/mailboxes/labels";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { Tabs } from "@/components/ui/tabs";
import { plural } from "./labels";
import { useRefreshCampaign, useTags, useWorkspaceMailboxes } from "./queries";

type Mode = "manual" | "tag" | "random";
type SelectBody =
  | { mode: "manual"; mailboxIds: string[] }
  | { mode: "tag"; tagIds: string[] }
  | { mode: "random"; count: number; tagIds?: string[] };

function toggled<T>(s: Set<T>, v: T): Set<T> {
  const n = new Set(s);
  if (n.has(v)) n.delete(v);
  else n.add(v);
  return n;
}

/** POST mailboxes/select in one of its three modes: picked by hand, by tag, or N at random. */
export function AddMailboxesDialog({
  campaignId,
  inPool,
  onClose,
  onDone,
}: {
  campaignId: string;
  inPool: Set<string>;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
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

  const tagBoxes = (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-gray-700">{mode === "tag" ? "Tags" : "Only mailboxes with these tags (optional)"}</legend>
      {tags.data?.length === 0 && <p className="text-sm text-gray-600">No tags yet: tag mailboxes on the Mailboxes page.</p>}
      {tags.data?.map((t) => (
        <label key={t.id} className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={tagIds.has(t.id)} onChange={() => setTagIds((s) => toggled(s, t.id))} />
          {t.name} <span className="text-xs text-gray-500">({plural(tagged(t.id), "mailbox", "mailboxes")})</span>
        </label>
      ))}
      {tags.error && <Alert tone="error">Could not load tags: {describeError(tags.error)}</Alert>}
    </fieldset>
  );

  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title="Add mailboxes to the pool"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!ready || select.isPending} onClick={submit}>
            {select.isPending ? "Adding…" : mode === "manual" ? `Add ${plural(picked.size, "mailbox", "mailboxes")}` : "Add mailboxes"}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        {select.error && <Alert tone="error">{describeError(select.error)}</Alert>}
        {mailboxes.error && <Alert tone="error">Could not load mailboxes: {describeError(mailboxes.error)}</Alert>}
        <Tabs
          label="How to pick"
          value={mode}
          onChange={(m) => {
            setMode(m);
            select.reset();
          }}
          tabs={[
            {
              id: "manual",
              label: "Pick",
              content: (
                <div className="space-y-2">
                  <Input
                    type="search"
                    aria-label="Search mailboxes"
                    placeholder="Search by address…"
                    value={search}
                    onChange={(e) => setSearch(e.target.value)}
                  />
                  <ul
                    className="max-h-80 divide-y divide-gray-100 overflow-y-auto rounded-md border border-gray-200"
                    aria-label="Mailboxes not in the pool"
                  >
                    {candidates.map((m) => (
                      <li key={m.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                        <label className="flex items-center gap-2">
                          <input
                            type="checkbox"
                            aria-label={`Pick ${m.email}`}
                            checked={picked.has(m.id)}
                            onChange={() => setPicked((s) => toggled(s, m.id))}
                          />
                          <span className="font-medium">{m.email}</span>
                          {m.senderName && <span className="text-gray-500">{m.senderName}</span>}
                        </label>
                        <Badge tone={HEALTH[m.healthStatus].tone}>{HEALTH[m.healthStatus].label}</Badge>
                      </li>
                    ))}
                    {mailboxes.data && candidates.length === 0 && (
                      <li className="px-3 py-6 text-center text-sm text-gray-600">
                        {all.length === 0
                          ? "No mailboxes connected yet: connect them on the Mailboxes page."
                          : "Every matching mailbox is already in the pool."}
                      </li>
                    )}
                    {mailboxes.isPending && <li className="px-3 py-6 text-center text-sm text-gray-500">Loading…</li>}
                  </ul>
                </div>
              ),
            },
            {
              id: "tag",
              label: "By tag",
              content: (
                <div className="space-y-2">
                  {tagBoxes}
                  <p className="text-xs text-gray-500">Every mailbox with any of these tags is added.</p>
                </div>
              ),
            },
            {
              id: "random",
              label: "Random",
              content: (
                <div className="space-y-3">
                  <Field
                    label="How many mailboxes"
                    errors={fieldErrors.count}
                    hint="Picked at random among the mailboxes that can send and are not in the pool yet."
                  >
                    <Input
                      type="number"
                      min={1}
                      max={10000}
                      step={1}
                      value={count}
                      onChange={(e) => setCount(e.target.value)}
                      className="w-32"
                    />
                  </Field>
                  {tagBoxes}
                </div>
              ),
            },
          ]}
        />
      </div>
    </Dialog>
  );
}
