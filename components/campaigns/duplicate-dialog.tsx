"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { keys } from "./queries";
import type { Campaign } from "./types";

/** POST /duplicate copies steps, settings, files and (by default) the pool into a new DRAFT; never the leads. */
export function DuplicateDialog({
  campaign,
  onClose,
  onDone,
}: {
  campaign: Campaign;
  onClose: () => void;
  onDone: (copy: Campaign) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(`Copy of ${campaign.name}`.slice(0, 200));
  const [folder, setFolder] = useState(campaign.folder ?? "");
  const [includeMailboxPool, setIncludePool] = useState(true);
  const duplicate = useMutation({
    mutationFn: () =>
      data(
        client.POST("/campaigns/{id}/duplicate", {
          params: { path: { id: campaign.id } },
          body: { name: name.trim(), folder: folder.trim() || null, includeMailboxPool },
        }),
      ),
    onSuccess: async (copy) => {
      await queryClient.invalidateQueries({ queryKey: keys.list() });
      onDone(copy);
    },
  });
  const fieldErrors = duplicate.error instanceof ApiError ? duplicate.error.fieldErrors : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    duplicate.mutate();
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Duplicate ${campaign.name}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="duplicate-campaign-form" disabled={duplicate.isPending}>
            {duplicate.isPending ? "Duplicating…" : "Duplicate"}
          </Button>
        </>
      }
    >
      <form id="duplicate-campaign-form" onSubmit={submit} className="space-y-3">
        {duplicate.error && <Alert tone="error">{duplicate.error.message}</Alert>}
        <Field label="Name of the copy" errors={fieldErrors.name}>
          <Input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Folder (optional)" errors={fieldErrors.folder}>
          <Input maxLength={100} value={folder} onChange={(e) => setFolder(e.target.value)} />
        </Field>
        <label className="flex items-center gap-2 text-sm text-gray-800">
          <input type="checkbox" checked={includeMailboxPool} onChange={(e) => setIncludePool(e.target.checked)} />
          Copy the mailbox pool
        </label>
        <p className="text-xs text-gray-500">
          Steps, settings and files are copied. Leads are not: the copy starts as a draft without leads.
        </p>
      </form>
    </Dialog>
  );
}
