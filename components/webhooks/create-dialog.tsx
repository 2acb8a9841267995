"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { SecretBox } from "@/components/ui/secret-box";
import { refreshWebhooks } from "./queries";
import type { WebhookInput, WebhookWithSecret } from "./types";
import { emptyForm, numberOrUndefined, WebhookForm } from "./webhook-form";

/**
 * POST /webhooks. The answer carries the signing secret, which the API never shows again: the dialog
 * then turns into the secret and its warning, and only "Done" closes it.
 */
export function CreateWebhookDialog({ open, onClose }: { open: boolean; onClose: (created?: WebhookWithSecret) => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(emptyForm);
  const [created, setCreated] = useState<WebhookWithSecret>();
  const create = useMutation({
    mutationFn: (body: WebhookInput) => data(client.POST("/webhooks", { body })),
    onSuccess: async (w) => {
      setCreated(w);
      await refreshWebhooks(queryClient);
    },
  });
  const fieldErrors = create.error instanceof ApiError ? create.error.fieldErrors : {};

  function close() {
    const done = created;
    setForm(emptyForm());
    setCreated(undefined);
    create.reset();
    onClose(done);
  }

  function submit() {
    create.mutate({
      url: form.url.trim(),
      events: form.events,
      retryAttempts: numberOrUndefined(form.retryAttempts),
      timeoutMs: numberOrUndefined(form.timeoutMs),
    });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? "Webhook created" : "New webhook"}
      wide
      footer={
        created ? (
          <Button onClick={close}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" form="webhook-create-form" disabled={create.isPending}>
              {create.isPending ? "Creating…" : "Create webhook"}
            </Button>
          </>
        )
      }
    >
      {created ? (
        <div className="space-y-3 text-sm text-gray-700">
          <p>
            Deliveries to <span className="font-mono break-all">{created.url}</span> are signed with this secret: compute the HMAC-SHA256 of{" "}
            <code className="rounded bg-gray-100 px-1">{"{X-Service-Timestamp}.{raw body}"}</code> and compare it with the{" "}
            <code className="rounded bg-gray-100 px-1">v1=</code> value of{" "}
            <code className="rounded bg-gray-100 px-1">X-Service-Signature</code>.
          </p>
          <SecretBox label="Signing secret" value={created.secret} warning="Copy the signing secret now. It will not be shown again." />
          <p className="text-xs text-gray-500">Lost it? Rotate the secret from the webhook list to get a new one.</p>
        </div>
      ) : (
        <div className="space-y-3">
          {create.error && (
            <Alert tone="error">
              <span data-testid="webhook-form-error">{describeError(create.error)}</span>
            </Alert>
          )}
          <WebhookForm id="webhook-create-form" value={form} onChange={setForm} onSubmit={submit} fieldErrors={fieldErrors} />
        </div>
      )}
    </Dialog>
  );
}
