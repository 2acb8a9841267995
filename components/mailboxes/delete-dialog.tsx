"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import { client, data } from "@/components/api-client";

/** DELETE /mailboxes/<id>; a mailbox with send or reply history is refused (409) and the reason shown. */
export function DeleteMailboxDialog({
  mailbox,
  onClose,
  onDone,
}: {
  mailbox: MailboxView;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => data(client.DELETE("/mailboxes/{id}", { params: { path: { id: mailbox.id } } })),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ["mailboxes"] }),
        queryClient.invalidateQueries({ queryKey: ["domains"] }),
      ]);
      onDone(`Deleted ${mailbox.email}.`);
    },
  });
  return (
    <ConfirmDeleteDialog
      open
      title={`Delete ${mailbox.email}?`}
      pending={remove.isPending}
      error={remove.error?.message}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
      onClose={onClose}
    >
      Its stored login is removed. A mailbox that has already sent or received email cannot be deleted; turn its sending off instead.
    </ConfirmDeleteDialog>
  );
}
