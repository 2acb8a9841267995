"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { SecretBox } from "@/components/ui/secret-box";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { ROLE_LABEL, RIGHTS_TABLE, ROLES, type Role } from "@/lib/roles";
import type { ResponseOf } from "@/lib/client";

type Created = ResponseOf<"/account/invitations", "post">;

/** One line on each role, next to the choice. */
export const ROLE_SUMMARY: Record<Role, string> = {
  owner: "Everything, including making owners and requiring two-factor sign-in for everyone.",
  admin: "Everything else: members and clients, the audit log, workspace settings.",
  member: "The daily work — leads, mailboxes, campaigns, the inbox — but not members or settings.",
  client: "Read-only: campaigns with their stats, analytics, reports and the inbox.",
};

export const INVITATION_KEYS = ["invitations"];

/** "Invite": email and role; afterwards the link once (to copy), or word that it was emailed. */
export function InviteDialog({ open, onClose, canInviteOwner }: { open: boolean; onClose: () => void; canInviteOwner: boolean }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<{ email: string; role: Role }>({ email: "", role: "member" });
  const [created, setCreated] = useState<Created>();
  const invite = useMutation({
    mutationFn: () => data(client.POST("/account/invitations", { body: { email: form.email.trim(), role: form.role } })),
    onSuccess: async (inv) => {
      setCreated(inv);
      await queryClient.invalidateQueries({ queryKey: INVITATION_KEYS });
    },
  });
  const fieldErrors = invite.error instanceof ApiError ? invite.error.fieldErrors : {};
  const close = () => {
    setCreated(undefined);
    setForm({ email: "", role: "member" });
    invite.reset();
    onClose();
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    invite.mutate();
  }
  const roles = ROLES.filter((r) => r !== "owner" || canInviteOwner);

  return (
    <Dialog open={open} onClose={close} title="Invite to this workspace">
      {created ? (
        <InviteCreated created={created} onAnother={() => setCreated(undefined)} onDone={close} />
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <Field label="Email" errors={fieldErrors.email}>
            <Input type="email" required value={form.email} onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))} />
          </Field>
          <fieldset className="space-y-2">
            <legend className="mb-1 text-sm font-medium text-gray-700">Role</legend>
            {roles.map((r) => (
              <label
                key={r}
                className="flex cursor-pointer items-start gap-2 rounded-md border border-gray-200 p-2 text-sm has-[:checked]:border-indigo-400"
              >
                <input
                  type="radio"
                  name="role"
                  value={r}
                  checked={form.role === r}
                  onChange={() => setForm((f) => ({ ...f, role: r }))}
                  className="mt-1"
                />
                <span>
                  <span className="font-medium text-gray-900">{ROLE_LABEL[r]}</span>
                  <span className="block text-gray-600">{ROLE_SUMMARY[r]}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {invite.error && <Alert tone="error">{describeError(invite.error)}</Alert>}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={invite.isPending}>
              {invite.isPending ? "Inviting…" : "Send invitation"}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** "What each role can do": the rights table of lib/roles.ts. */
export function RightsTable() {
  return (
    <section className="space-y-2">
      <h2 className="text-sm font-semibold text-gray-900">What each role can do</h2>
      <Table aria-label="What each role can do">
        <THead>
          <tr>
            <Th>Right</Th>
            {ROLES.map((r) => (
              <Th key={r} className="text-center">
                {ROLE_LABEL[r]}
              </Th>
            ))}
          </tr>
        </THead>
        <TBody>
          {RIGHTS_TABLE.map((row) => (
            <Tr key={row.right}>
              <Td>{row.right}</Td>
              {ROLES.map((r) => (
                <Td key={r} className="text-center" aria-label={row.roles[r] ? "yes" : "no"}>
                  {row.roles[r] ? "✓" : "—"}
                </Td>
              ))}
            </Tr>
          ))}
        </TBody>
      </Table>
    </section>
  );
}

/** The invitation just made: its link to copy, or word that it was emailed. */
function InviteCreated({ created, onAnother, onDone }: { created: Created; onAnother: () => void; onDone: () => void }) {
  return (
    <div className="space-y-3 text-sm">
      {created.url ? (
        <SecretBox
          label="Invitation link"
          value={created.url}
          warning={`Copy this link for ${created.email} now: it is shown once, works once and expires on ${new Date(created.expiresAt).toLocaleString()}.`}
        />
      ) : (
        <Alert tone="success">Invitation emailed to {created.email}. The link works once, for 7 days.</Alert>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onAnother}>
          Invite someone else
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
