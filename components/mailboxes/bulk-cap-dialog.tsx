"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { FormFooter } from "@/components/ui/form-footer";
import { Field, Input } from "@/components/ui/input";
import { client, data } from "@/components/api-client";

/** PATCH /mailboxes/bulk-daily-cap: one cap (at most 20) on every selected mailbox. */
export function BulkCapDialog({
  mailboxIds,
  onClose,
  onDone,
}: {
  mailboxIds: string[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const [cap, setCap] = useState("");
  const save = useMutation({
    mutationFn: () => data(client.PATCH("/mailboxes/bulk-daily-cap", { body: { mailboxIds, dailySendCap: Number(cap) } })),
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: ["mailboxes"] });
      const gone = r.notFound.length ? ` ${r.notFound.length} no longer exist${r.notFound.length === 1 ? "s" : ""}.` : "";
      onDone(`Daily send cap set to ${cap} on ${r.updated} mailbox${r.updated === 1 ? "" : "es"}.${gone}`);
    },
  });
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};
  const n = mailboxIds.length;

  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Set the daily cap of ${n} mailbox${n === 1 ? "" : "es"}`}
      footer={
        <FormFooter form="bulk-cap-form" pending={save.isPending} disabled={cap === ""} onCancel={onClose} submitLabel="Set daily cap" />
      }
    >
      <form id="bulk-cap-form" onSubmit={submit} className="space-y-3">
        <Field label="Emails per day" errors={fieldErrors.dailySendCap} hint="From 0 to 20, for each selected mailbox.">
          <Input type="number" required min={0} max={20} value={cap} onChange={(e) => setCap(e.target.value)} />
        </Field>
        {save.error && <Alert tone="error">{save.error.message}</Alert>}
      </form>
    </Dialog>
  );
}
