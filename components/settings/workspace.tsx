"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { useCan, useMember } from "@/components/shell/member-context";
import { setWorkspaceCookie } from "@/components/shell/workspace-cookie";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { EngagementCounting } from "./engagement-counting";
import { SettingsNav } from "./settings-nav";

/** Creates a workspace owned by the signed-in user, then opens it (the cookie names it, the page loads afresh). */
export function NewWorkspaceForm({ onCancel }: { onCancel?: () => void }) {
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => data(client.POST("/account/workspaces", { body: { name: name.trim() } })),
    onSuccess: (ws) => {
      setWorkspaceCookie(ws.id);
      // A full load: everything on screen and in the cache belonged to the previous workspace.
      window.location.assign("/leads");
    },
  });
  const fieldErrors = create.error instanceof ApiError ? create.error.fieldErrors : {};
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate();
  }
  return (
    <form onSubmit={submit} className="space-y-3">
      <Field
        label="Workspace name"
        errors={fieldErrors.name}
        hint="You will be its owner. Mailboxes, leads and campaigns are separate per workspace."
      >
        <Input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Acme outbound" />
      </Field>
      {create.error && !fieldErrors.name && <Alert tone="error">{describeError(create.error)}</Alert>}
      <div className="flex gap-2">
        <Button type="submit" disabled={create.isPending || !name.trim()}>
          {create.isPending ? "Creating…" : "Create and open"}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

export function NewWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="New workspace">
      <NewWorkspaceForm onCancel={onClose} />
    </Dialog>
  );
}

function RenameWorkspace({ currentName }: { currentName: string }) {
  const router = useRouter();
  const [name, setName] = useState(currentName);
  const rename = useMutation({
    mutationFn: () => data(client.PATCH("/account/workspace", { body: { name: name.trim() } })),
    // The sidebar's name comes from the server layout.
    onSuccess: () => router.refresh(),
  });
  const fieldErrors = rename.error instanceof ApiError ? rename.error.fieldErrors : {};
  function submit(e: FormEvent) {
    e.preventDefault();
    rename.mutate();
  }
  return (
    <form onSubmit={submit} className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 className="text-sm font-semibold text-gray-900">Name</h2>
      <Field label="Workspace name" errors={fieldErrors.name}>
        <Input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} className="max-w-md" />
      </Field>
      {rename.error && !fieldErrors.name && <Alert tone="error">{describeError(rename.error)}</Alert>}
      {rename.isSuccess && <Alert tone="success">Renamed.</Alert>}
      <Button type="submit" disabled={rename.isPending || !name.trim() || name.trim() === currentName}>
        {rename.isPending ? "Saving…" : "Save"}
      </Button>
    </form>
  );
}

/** Leaving: the membership goes and every session of the user ends (they sign in again). */
function LeaveWorkspace({ workspaceName }: { workspaceName: string }) {
  const member = useMember();
  const [confirming, setConfirming] = useState(false);
  const leave = useMutation({
    mutationFn: () => data(client.DELETE("/account/members/{userId}", { params: { path: { userId: member?.userId ?? "" } } })),
    onSuccess: () => window.location.assign("/login"),
  });
  return (
    <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <div>
        <h2 className="text-sm font-semibold text-gray-900">Leave “{workspaceName}”</h2>
        <p className="text-sm text-gray-600">
          You lose access at once and are signed out everywhere; your API keys here are revoked. The last owner cannot leave.
        </p>
      </div>
      {leave.error && <Alert tone="error">{describeError(leave.error)}</Alert>}
      {confirming ? (
        <div className="flex gap-2">
          <Button variant="danger" disabled={leave.isPending} onClick={() => leave.mutate()}>
            {leave.isPending ? "Leaving…" : "Yes, leave this workspace"}
          </Button>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          Leave workspace…
        </Button>
      )}
    </section>
  );
}

/** Settings → Workspace: rename the current workspace (owner or admin), how opens and clicks count, create another one, or leave this one. */
export function WorkspaceSettings({ workspaceName }: { workspaceName: string }) {
  const member = useMember();
  const canRename = useCan("admin");
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">Workspace</h1>
        <div className="my-3">
          <SettingsNav active="workspace" />
        </div>
      </div>
      {/* Keyed by the name: after a rename, the form starts from the new one. */}
      {canRename && <RenameWorkspace key={`${member?.workspaceId}:${workspaceName}`} currentName={workspaceName} />}
      <EngagementCounting />
      <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
        <div>
          <h2 className="text-sm font-semibold text-gray-900">Create another workspace</h2>
          <p className="text-sm text-gray-600">Switch between your workspaces with the picker at the top of the sidebar.</p>
        </div>
        <NewWorkspaceForm />
      </section>
      <LeaveWorkspace workspaceName={workspaceName} />
    </div>
  );
}
