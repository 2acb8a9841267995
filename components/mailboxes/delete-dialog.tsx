"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import { apiRequest } from "./api";

/** DELETE /mailboxes/<id>; a mailbox with send or reply history is refused (409) and the reason shown. */
export function DeleteMailboxDialog({ mailbox, onClose, onDone }: { mailbox: MailboxView; onClose: () => void; onDone: (message: string) => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => apiRequest(`/api/v1/mailboxes/${encodeURIComponent(mailbox.id)}`, { method: "DELETE" }),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ["mailboxes"] }), queryClient.invalidateQueries({ queryKey: ["domains"] })]);
      onDone(`Deleted ${mailbox.email}.`);
    },
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Delete ${mailbox.email}?`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            {remove.isPending ? "Deleting…" : "Delete"}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700">
        <p>Its stored login is removed. A mailbox that has already sent or received email cannot be deleted; turn its sending off instead.</p>
        {remove.error && <Alert tone="error">{remove.error.message}</Alert>}
      </div>
    </Dialog>
  );
}
