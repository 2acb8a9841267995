"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Dispatch, type FormEvent, type SetStateAction, useState } from "react";
import { ApiError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { FormFooter } from "@/components/ui/form-footer";
import { Field, Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { MailboxView, PatchMailboxInput } from "@/lib/mailboxes/schemas";
import { client, data } from "@/components/api-client";

/** PATCH accepts at most 20; a higher cap set by an import stays unless it is changed here. */
const PATCH_CAP_MAX = 20;

interface Form {
  senderName: string;
  signatureHtml: string;
  dailySendCap: string;
  sendingEnabled: boolean;
  /** AUTO_PAUSED only: send sendingEnabled: true, which lifts the bounce pause. */
  liftAutoPause: boolean;
}

/** Only what changed is sent, so an untouched cap above 20 is not refused. */
function changes(m: MailboxView, f: Form): PatchMailboxInput {
  const body: PatchMailboxInput = {};
  if (f.senderName.trim() !== (m.senderName ?? "")) body.senderName = f.senderName.trim() || null;
  if (f.signatureHtml !== (m.signatureHtml ?? "")) body.signatureHtml = f.signatureHtml.trim() ? f.signatureHtml : null;
  if (f.dailySendCap.trim() !== "" && Number(f.dailySendCap) !== m.dailySendCap) body.dailySendCap = Number(f.dailySendCap);
  if (f.sendingEnabled !== m.sendingEnabled) body.sendingEnabled = f.sendingEnabled;
  if (f.liftAutoPause && f.sendingEnabled) body.sendingEnabled = true;
  return body;
}

export function MailboxEditDialog({ mailbox: m, onClose }: { mailbox: MailboxView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>({
    senderName: m.senderName ?? "",
    signatureHtml: m.signatureHtml ?? "",
    dailySendCap: String(m.dailySendCap),
    sendingEnabled: m.sendingEnabled,
    liftAutoPause: false,
  });
  const save = useMutation({
    mutationFn: (body: PatchMailboxInput) => data(client.PATCH("/mailboxes/{id}", { params: { path: { id: m.id } }, body })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["mailboxes"] });
      onClose();
    },
  });
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    const body = changes(m, form);
    if (Object.keys(body).length === 0) return onClose();
    save.mutate(body);
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Edit ${m.email}`}
      wide
      footer={<FormFooter form="mailbox-edit-form" pending={save.isPending} onCancel={onClose} />}
    >
      <form id="mailbox-edit-form" onSubmit={submit} className="space-y-3">
        {save.error && <Alert tone="error">{save.error.message}</Alert>}
        <NameAndCap m={m} form={form} setForm={setForm} fieldErrors={fieldErrors} />
        <Field label="Signature (HTML)" errors={fieldErrors.signatureHtml} hint="Added below every email sent from this mailbox.">
          <Textarea
            rows={5}
            maxLength={20_000}
            className="font-mono text-xs"
            value={form.signatureHtml}
            onChange={(e) => setForm((f) => ({ ...f, signatureHtml: e.target.value }))}
          />
        </Field>
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input
            type="checkbox"
            checked={form.sendingEnabled}
            onChange={(e) => setForm((f) => ({ ...f, sendingEnabled: e.target.checked }))}
          />
          Sending enabled
        </label>
        {m.healthStatus === "AUTO_PAUSED" && (
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input
              type="checkbox"
              checked={form.liftAutoPause}
              onChange={(e) => setForm((f) => ({ ...f, liftAutoPause: e.target.checked }))}
            />
            Resume sending: lift the automatic pause for bounces
          </label>
        )}
      </form>
    </Dialog>
  );
}

function NameAndCap({
  m,
  form,
  setForm,
  fieldErrors,
}: {
  m: MailboxView;
  form: Form;
  setForm: Dispatch<SetStateAction<Form>>;
  fieldErrors: Record<string, string[]>;
}) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <Field label="Sender name" errors={fieldErrors.senderName}>
        <Input maxLength={200} value={form.senderName} onChange={(e) => setForm((f) => ({ ...f, senderName: e.target.value }))} />
      </Field>
      <Field
        label="Daily send cap"
        errors={fieldErrors.dailySendCap}
        hint={
          m.dailySendCap > PATCH_CAP_MAX
            ? `Currently ${m.dailySendCap} (set by an import). Here it can be lowered to ${PATCH_CAP_MAX} or less.`
            : `Emails a day, at most ${PATCH_CAP_MAX}.`
        }
      >
        <Input
          type="number"
          min={0}
          // An unchanged value above the maximum must not block the form: it is not sent.
          max={Math.max(PATCH_CAP_MAX, m.dailySendCap)}
          value={form.dailySendCap}
          onChange={(e) => setForm((f) => ({ ...f, dailySendCap: e.target.value }))}
        />
      </Field>
    </div>
  );
}
