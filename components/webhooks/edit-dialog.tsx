"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { refreshWebhooks, webhookParams } from "./queries";
import type { WebhookInput, WebhookPatch, WebhookView } from "./types";
import { formOf, numberOrUndefined, WebhookForm, type WebhookFormState } from "./webhook-form";

/** Only the fields that changed: PATCH leaves the others (and the secret and the log) as they are. */
function changes(w: WebhookView, f: WebhookFormState): Partial<WebhookInput> {
  const body: Partial<WebhookInput> = {};
  if (f.url.trim() !== w.url) body.url = f.url.trim();
  const events = [...f.events].sort();
  if (events.join() !== [...w.events].sort().join()) body.events = f.events;
  const retries = numberOrUndefined(f.retryAttempts);
  if (retries !== w.retryAttempts) body.retryAttempts = retries ?? NaN;
  const timeout = numberOrUndefined(f.timeoutMs);
  if (timeout !== w.timeoutMs) body.timeoutMs = timeout ?? NaN;
  if (f.active !== w.active) body.active = f.active;
  return body;
}

export function EditWebhookDialog({
  webhook,
  onClose,
  onSaved,
}: {
  webhook: WebhookView;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(() => formOf(webhook));
  const save = useMutation({
    mutationFn: (body: WebhookPatch) => data(client.PATCH("/webhooks/{id}", { params: webhookParams(webhook.id), body })),
    onSuccess: async (w) => {
      await refreshWebhooks(queryClient);
      onSaved(`Saved the webhook to ${w.url}.`);
    },
  });
  const fieldErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};

  function submit() {
    const body = changes(webhook, form);
    if (Object.keys(body).length === 0) return onClose();
    save.mutate(body);
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Edit webhook"
      wide
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="webhook-edit-form" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save"}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        {save.error && (
          <Alert tone="error">
            <span data-testid="webhook-form-error">{describeError(save.error)}</span>
          </Alert>
        )}
        <p className="text-xs text-gray-500">The id, the signing secret and the delivery log stay as they are.</p>
        <WebhookForm id="webhook-edit-form" value={form} onChange={setForm} onSubmit={submit} fieldErrors={fieldErrors} showActive />
      </div>
    </Dialog>
  );
}
