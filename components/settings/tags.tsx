"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import type { ResponseOf } from "@/lib/client";
import { SettingsNav } from "./settings-nav";
import { ColorPicker, TAG_PALETTE, TagSwatch } from "./tags-color";

type Tag = ResponseOf<"/tags", "get">["tags"][number];

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

function useTagList() {
  return useQuery({
    // Its own key: the lead screens' ["tags"] holds the plain list; both are refreshed on a change.
    queryKey: ["tags", "settings"],
    queryFn: ({ signal }) => data(client.GET("/tags", { signal })).then((r) => r.tags),
  });
}

function useRefreshTags() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["tags"] }),
      queryClient.invalidateQueries({ queryKey: ["leads"] }),
      queryClient.invalidateQueries({ queryKey: ["mailboxes"] }),
    ]);
}

/** Name and colour of a new tag; the API's messages (a taken name, a colour that is not #rrggbb) show at their field. */
function CreateTag() {
  const refresh = useRefreshTags();
  const [name, setName] = useState("");
  const [color, setColor] = useState<string>(TAG_PALETTE[5].hex);
  const create = useMutation({
    mutationFn: () => data(client.POST("/tags", { body: { name: name.trim(), color: color || null } })),
    onSuccess: async () => {
      setName("");
      await refresh();
    },
  });
  const fieldErrors = create.error instanceof ApiError ? create.error.fieldErrors : {};
  function submit(e: FormEvent) {
    e.preventDefault();
    if (name.trim()) create.mutate();
  }
  return (
    <form onSubmit={submit} className="min-w-0 space-y-3 rounded-lg border border-gray-200 bg-white p-4" noValidate>
      <h2 className="text-sm font-semibold text-gray-900">New tag</h2>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Field label="Tag name" errors={fieldErrors.name}>
          <Input
            maxLength={100}
            value={name}
            placeholder="e.g. Enterprise"
            onChange={(e) => {
              create.reset();
              setName(e.target.value);
            }}
          />
        </Field>
        <ColorPicker label="Colour" palette={TAG_PALETTE} allowNone value={color} onChange={setColor} errors={fieldErrors.color} />
      </div>
      {create.error && Object.keys(fieldErrors).length === 0 && <Alert tone="error">{describeError(create.error)}</Alert>}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={create.isPending || !name.trim()}>
          {create.isPending ? "Creating…" : "Create tag"}
        </Button>
        {name.trim() && <TagSwatch name={name.trim()} color={color || null} />}
      </div>
    </form>
  );
}

/** Rename and recolour one tag; only what changed is sent. */
function EditTagDialog({ tag, onClose }: { tag: Tag; onClose: () => void }) {
  const refresh = useRefreshTags();
  const [name, setName] = useState(tag.name);
  const [color, setColor] = useState(tag.color ?? "");
  const body = {
    ...(name.trim() !== tag.name ? { name: name.trim() } : {}),
    ...((color || null) !== tag.color ? { color: color || null } : {}),
  };
  const save = useMutation({
    mutationFn: () => data(client.PATCH("/tags/{tagId}", { params: { path: { tagId: tag.id } }, body })),
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  const changed = Object.keys(body).length > 0;
  function submit(e: FormEvent) {
    e.preventDefault();
    if (changed) save.mutate();
  }
  const formId = `edit-tag-${tag.id}`;
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Edit tag ${tag.name}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={save.isPending || !changed || !name.trim()}>
            {save.isPending ? "Saving…" : "Save"}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Tag name" errors={fieldErrors.name}>
          <Input autoFocus maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <ColorPicker label="Colour" palette={TAG_PALETTE} allowNone value={color} onChange={setColor} errors={fieldErrors.color} />
        <div className="flex items-center gap-2 text-sm text-gray-600">
          Preview: <TagSwatch name={name.trim() || tag.name} color={color || null} />
        </div>
        {save.error && Object.keys(fieldErrors).length === 0 && <Alert tone="error">{describeError(save.error)}</Alert>}
      </form>
    </Dialog>
  );
}

function TagTable({ tags, canEdit }: { tags: Tag[]; canEdit: boolean }) {
  const refresh = useRefreshTags();
  const [editing, setEditing] = useState<Tag>();
  const [deleting, setDeleting] = useState<Tag>();
  const remove = useMutation({
    mutationFn: (tagId: string) => data(client.DELETE("/tags/{tagId}", { params: { path: { tagId } } })),
    onSuccess: async () => {
      setDeleting(undefined);
      await refresh();
    },
  });
  return (
    <>
      <Table aria-label="Tags">
        <THead>
          <tr>
            <Th>Tag</Th>
            <Th>Colour</Th>
            <Th>Leads</Th>
            <Th>Mailboxes</Th>
            {canEdit && <Th className="text-right">Actions</Th>}
          </tr>
        </THead>
        <TBody>
          {tags.length === 0 && (
            <tr>
              <Td colSpan={5} className="text-gray-500">
                No tags yet. Tags group leads and mailboxes for filters, pools and branches.
              </Td>
            </tr>
          )}
          {tags.map((t) => (
            <Tr key={t.id} data-testid="tag-row">
              <Td className="max-w-48">
                <TagSwatch name={t.name} color={t.color} />
              </Td>
              <Td className="font-mono text-xs text-gray-600">{t.color ?? "none"}</Td>
              <Td className="tabular-nums">{t.leadCount.toLocaleString()}</Td>
              <Td className="tabular-nums">{t.mailboxCount.toLocaleString()}</Td>
              {canEdit && (
                <Td className="text-right whitespace-nowrap">
                  <Button variant="ghost" size="sm" aria-label={`Edit ${t.name}`} onClick={() => setEditing(t)}>
                    Edit
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Delete ${t.name}`}
                    onClick={() => {
                      remove.reset();
                      setDeleting(t);
                    }}
                  >
                    Delete
                  </Button>
                </Td>
              )}
            </Tr>
          ))}
        </TBody>
      </Table>
      {editing && <EditTagDialog key={editing.id} tag={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDeleteDialog
        open={!!deleting}
        title={`Delete tag ${deleting?.name ?? ""}?`}
        pending={remove.isPending}
        error={remove.error ? describeError(remove.error) : undefined}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCancel={() => setDeleting(undefined)}
        onClose={() => setDeleting(undefined)}
      >
        {deleting &&
          `It is removed from ${count(deleting.leadCount, "lead", "leads")} and ${count(deleting.mailboxCount, "mailbox", "mailboxes")}` +
            " (they stay; only the tag goes). Campaign pools and branches that pick by this tag no longer match it."}
      </ConfirmDeleteDialog>
    </>
  );
}

/** Settings → Tags: create, rename, recolour and delete the workspace's tags, with what carries each. */
export function TagsSettings() {
  const canEdit = useCan("member");
  const tags = useTagList();
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">Tags</h1>
        <div className="my-3">
          <SettingsNav active="tags" />
        </div>
        <p className="text-sm text-gray-600">Tags label leads and mailboxes. Renaming one renames it everywhere it is attached.</p>
      </div>
      {canEdit && <CreateTag />}
      {tags.error && <Alert tone="error">Could not load the tags: {describeError(tags.error)}</Alert>}
      {tags.isPending && <p className="text-sm text-gray-500">Loading…</p>}
      {tags.data && <TagTable tags={tags.data} canEdit={canEdit} />}
    </div>
  );
}
