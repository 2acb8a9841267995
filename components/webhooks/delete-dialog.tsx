"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { describeError, data, client } from "@/components/api-client";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { webhookParams } from "./queries";
import type { WebhookView } from "./types";

/** DELETE /webhooks/<id>: the webhook and its delivery log. */
export function DeleteWebhookDialog({
  webhook,
  onClose,
  onDeleted,
}: {
  webhook: WebhookView;
  onClose: () => void;
  onDeleted: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => data(client.DELETE("/webhooks/{id}", { params: webhookParams(webhook.id) })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: ["webhooks", "one", webhook.id] });
      queryClient.removeQueries({ queryKey: ["webhooks", "deliveries", webhook.id] });
      // Only the list: the webhook's own query would look it up again and find it gone.
      await queryClient.invalidateQueries({ queryKey: ["webhooks", "list"] });
      onDeleted(`Deleted the webhook to ${webhook.url}.`);
    },
  });
  return (
    <ConfirmDeleteDialog
      open
      title="Delete this webhook?"
      pending={remove.isPending}
      error={remove.error ? describeError(remove.error) : undefined}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
      onClose={onClose}
    >
      No more events go to <span className="font-mono break-all">{webhook.url}</span>, and its delivery log is deleted with it. Pending
      deliveries are dropped. This cannot be undone; to stop deliveries for a while, pause it instead.
    </ConfirmDeleteDialog>
  );
}
