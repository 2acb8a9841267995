"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { refreshWebhooks, webhookParams } from "./queries";
import type { WebhookView } from "./types";

/**
 * POST /webhooks/<id>/test: one signed `webhook.test`, sent now. The API answers 200 whatever the
 * receiver did, so the outcome (delivered, the receiver's status code, the error) is shown from the body.
 */
export function TestWebhookDialog({ webhook, onClose }: { webhook: WebhookView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: () => data(client.POST("/webhooks/{id}/test", { params: webhookParams(webhook.id) })),
    onSettled: () => refreshWebhooks(queryClient),
  });
  const r = send.data;

  return (
    <Dialog
      open
      onClose={onClose}
      title="Send a test event"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button disabled={send.isPending} onClick={() => send.mutate()}>
            {send.isPending ? "Sending…" : r || send.error ? "Send again" : "Send test event"}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700">
        <p>
          Sends one signed <code className="rounded bg-gray-100 px-1">webhook.test</code> event to{" "}
          <span className="font-mono break-all">{webhook.url}</span> now. It is logged with the deliveries but never retried.
        </p>
        {!webhook.active && <Alert tone="info">This webhook is paused; a test is sent anyway.</Alert>}
        {r && (
          <Alert tone={r.delivered ? "success" : "error"}>
            <p className="font-medium" data-testid="webhook-test-result">
              {r.delivered ? "Delivered" : "Not delivered"}
              {r.statusCode !== null ? ` — the receiver answered HTTP ${r.statusCode}` : " — no HTTP answer"}
            </p>
            {r.error && (
              <p className="mt-1 break-words" data-testid="webhook-test-error">
                {r.error}
              </p>
            )}
            <p className="mt-1 text-xs break-all">Event id: {r.eventId}</p>
          </Alert>
        )}
        {send.error && <Alert tone="error">{describeError(send.error)}</Alert>}
      </div>
    </Dialog>
  );
}
