"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ApiError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { keys } from "./queries";

/**
 * A new campaign needs only a name (and optionally a folder): it starts as a DRAFT with the default
 * settings, and the user goes straight to its page to write the sequence.
 */
export function CreateCampaignDialog({ open, onClose, folders }: { open: boolean; onClose: () => void; folders: string[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [folder, setFolder] = useState("");
  const create = useMutation({
    mutationFn: () => data(client.POST("/campaigns", { body: { name: name.trim(), folder: folder.trim() || null } })),
    onSuccess: async (c) => {
      await queryClient.invalidateQueries({ queryKey: keys.list() });
      router.push(`/campaigns/${encodeURIComponent(c.id)}`);
    },
  });
  const fieldErrors = create.error instanceof ApiError ? create.error.fieldErrors : {};

  function close() {
    create.reset();
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate();
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="New campaign"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form="create-campaign-form" disabled={create.isPending || create.isSuccess}>
            {create.isPending ? "Creating…" : "Create campaign"}
          </Button>
        </>
      }
    >
      <form id="create-campaign-form" onSubmit={submit} className="space-y-3">
        {create.error && <Alert tone="error">{create.error.message}</Alert>}
        <Field label="Campaign name" errors={fieldErrors.name}>
          <Input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        </Field>
        <Field label="Folder (optional)" errors={fieldErrors.folder} hint="A free-text group for filtering the list.">
          <Input maxLength={100} list="campaign-folders" value={folder} onChange={(e) => setFolder(e.target.value)} />
        </Field>
        <datalist id="campaign-folders">
          {folders.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
        <p className="text-xs text-gray-500">
          It starts as a draft with sending on weekdays from 9:00 to 17:00; change that under Settings.
        </p>
      </form>
    </Dialog>
  );
}
