"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { data, client } from "@/components/api-client";
import { DeleteWebhookDialog } from "./delete-dialog";
import { EditWebhookDialog } from "./edit-dialog";
import { refreshWebhooks, webhookParams } from "./queries";
import { RotateSecretDialog } from "./rotate-dialog";
import { TestWebhookDialog } from "./test-dialog";
import type { WebhookView } from "./types";

/** Which dialog of a webhook is open. */
export type WebhookAction = { kind: "edit" | "rotate" | "test" | "delete"; webhook: WebhookView };

/** The dialogs of one webhook, shared by the list and the webhook's own page. */
export function WebhookDialogs({
  action,
  onClose,
  onNotice,
  onDeleted,
}: {
  action: WebhookAction | undefined;
  onClose: () => void;
  onNotice: (message: string) => void;
  onDeleted?: (message: string) => void;
}) {
  if (!action) return null;
  const w = action.webhook;
  switch (action.kind) {
    case "edit":
      return (
        <EditWebhookDialog
          key={w.id}
          webhook={w}
          onClose={onClose}
          onSaved={(m) => {
            onClose();
            onNotice(m);
          }}
        />
      );
    case "rotate":
      return <RotateSecretDialog key={w.id} webhook={w} onClose={onClose} />;
    case "test":
      return <TestWebhookDialog key={w.id} webhook={w} onClose={onClose} />;
    case "delete":
      return (
        <DeleteWebhookDialog
          key={w.id}
          webhook={w}
          onClose={onClose}
          onDeleted={(m) => {
            onClose();
            (onDeleted ?? onNotice)(m);
          }}
        />
      );
  }
}

/** Pause (active: false) or resume a webhook. A paused one gets no new deliveries; its pending ones wait. */
export function useSetActive(onDone?: (message: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (w: WebhookView) => data(client.PATCH("/webhooks/{id}", { params: webhookParams(w.id), body: { active: !w.active } })),
    onSuccess: async (w) => {
      await refreshWebhooks(queryClient);
      onDone?.(w.active ? `Resumed the webhook to ${w.url}.` : `Paused the webhook to ${w.url}: no new deliveries until it is resumed.`);
    },
  });
}
