"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { SecretBox } from "@/components/ui/secret-box";
import { dateTime } from "@/components/ui/time";
import { refreshWebhooks, webhookParams } from "./queries";
import type { WebhookView } from "./types";

/**
 * POST /webhooks/<id>/rotate-secret after a confirmation. The new secret is shown once; for 24 hours
 * every request carries two signatures (new and old), so the receiver can switch over without a gap.
 */
export function RotateSecretDialog({ webhook, onClose }: { webhook: WebhookView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => data(client.POST("/webhooks/{id}/rotate-secret", { params: webhookParams(webhook.id) })),
    onSuccess: () => refreshWebhooks(queryClient),
  });
  const rotated = rotate.data;

  return (
    <Dialog
      open
      onClose={onClose}
      title={rotated ? "New signing secret" : "Rotate the signing secret?"}
      wide={!!rotated}
      footer={
        rotated ? (
          <Button onClick={onClose}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="danger" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              {rotate.isPending ? "Rotating…" : "Rotate secret"}
            </Button>
          </>
        )
      }
    >
      {rotated ? (
        <div className="space-y-3 text-sm text-gray-700">
          <SecretBox label="Signing secret" value={rotated.secret} warning="Copy the new signing secret now. It will not be shown again.">
            <p className="text-sm text-yellow-900" data-testid="rotation-overlap">
              For 24 hours{rotated.previousSecretActiveUntil ? ` (until ${dateTime(rotated.previousSecretActiveUntil)})` : ""} both the new
              and the old secret sign every request: <code className="rounded bg-white px-1">X-Service-Signature</code> carries two{" "}
              <code className="rounded bg-white px-1">v1=</code> values. Put the new secret in your receiver before then.
            </p>
          </SecretBox>
        </div>
      ) : (
        <div className="space-y-3 text-sm text-gray-700">
          <p>
            A new signing secret is made for <span className="font-mono break-all">{webhook.url}</span> and shown once. For the next 24
            hours every request is signed with both the new and the current secret, so your receiver keeps verifying while you switch it
            over; after that only the new one signs.
          </p>
          {webhook.previousSecretActiveUntil && (
            <Alert tone="warning">
              A rotation is already in its overlap (the previous secret signs until {dateTime(webhook.previousSecretActiveUntil)}). Rotating
              again ends that: the secret before the current one stops signing now.
            </Alert>
          )}
          {rotate.error && <Alert tone="error">{describeError(rotate.error)}</Alert>}
        </div>
      )}
    </Dialog>
  );
}
