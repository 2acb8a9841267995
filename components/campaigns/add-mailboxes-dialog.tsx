"use client";

import { describeError } from "@/components/api-client";
import { HEALTH } from "@/components/mailboxes/labels";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { Tabs } from "@/components/ui/tabs";
import { plural } from "./labels";
import { type AddMailboxesState, toggled, useAddMailboxes } from "./use-add-mailboxes";

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
  const s = useAddMailboxes(campaignId, inPool, onDone);
  const { select, mode } = s;

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
          <Button disabled={!s.ready || select.isPending} onClick={s.submit}>
            {select.isPending ? "Adding…" : mode === "manual" ? `Add ${plural(s.picked.size, "mailbox", "mailboxes")}` : "Add mailboxes"}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        {select.error && <Alert tone="error">{describeError(select.error)}</Alert>}
        {s.mailboxes.error && <Alert tone="error">Could not load mailboxes: {describeError(s.mailboxes.error)}</Alert>}
        <Tabs
          label="How to pick"
          value={mode}
          onChange={(m) => {
            s.setMode(m);
            select.reset();
          }}
          tabs={[
            { id: "manual", label: "Pick", content: <PickTab s={s} /> },
            {
              id: "tag",
              label: "By tag",
              content: (
                <div className="space-y-2">
                  <TagBoxes s={s} />
                  <p className="text-xs text-gray-500">Every mailbox with any of these tags is added.</p>
                </div>
              ),
            },
            { id: "random", label: "Random", content: <RandomTab s={s} /> },
          ]}
        />
      </div>
    </Dialog>
  );
}

/** The tags as checkboxes: what "By tag" adds, or what "Random" may be limited to. */
function TagBoxes({ s }: { s: AddMailboxesState }) {
  const { tags, tagIds } = s;
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-gray-700">
        {s.mode === "tag" ? "Tags" : "Only mailboxes with these tags (optional)"}
      </legend>
      {tags.data?.length === 0 && <p className="text-sm text-gray-600">No tags yet: tag mailboxes on the Mailboxes page.</p>}
      {tags.data?.map((t) => (
        <label key={t.id} className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={tagIds.has(t.id)} onChange={() => s.setTagIds((v) => toggled(v, t.id))} />
          {t.name} <span className="text-xs text-gray-500">({plural(s.tagged(t.id), "mailbox", "mailboxes")})</span>
        </label>
      ))}
      {tags.error && <Alert tone="error">Could not load tags: {describeError(tags.error)}</Alert>}
    </fieldset>
  );
}

/** "Pick": search the mailboxes not in the pool and tick them one by one. */
function PickTab({ s }: { s: AddMailboxesState }) {
  const { candidates, mailboxes } = s;
  return (
    <div className="space-y-2">
      <Input
        type="search"
        aria-label="Search mailboxes"
        placeholder="Search by address…"
        value={s.search}
        onChange={(e) => s.setSearch(e.target.value)}
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
                checked={s.picked.has(m.id)}
                onChange={() => s.setPicked((v) => toggled(v, m.id))}
              />
              <span className="font-medium">{m.email}</span>
              {m.senderName && <span className="text-gray-500">{m.senderName}</span>}
            </label>
            <Badge tone={HEALTH[m.healthStatus].tone}>{HEALTH[m.healthStatus].label}</Badge>
          </li>
        ))}
        {mailboxes.data && candidates.length === 0 && (
          <li className="px-3 py-6 text-center text-sm text-gray-600">
            {s.all.length === 0
              ? "No mailboxes connected yet: connect them on the Mailboxes page."
              : "Every matching mailbox is already in the pool."}
          </li>
        )}
        {mailboxes.isPending && <li className="px-3 py-6 text-center text-sm text-gray-500">Loading…</li>}
      </ul>
    </div>
  );
}

/** "Random": how many mailboxes to draw, optionally only among some tags. */
function RandomTab({ s }: { s: AddMailboxesState }) {
  return (
    <div className="space-y-3">
      <Field
        label="How many mailboxes"
        errors={s.fieldErrors.count}
        hint="Picked at random among the mailboxes that can send and are not in the pool yet."
      >
        <Input type="number" min={1} max={10000} step={1} value={s.count} onChange={(e) => s.setCount(e.target.value)} className="w-32" />
      </Field>
      <TagBoxes s={s} />
    </div>
  );
}
