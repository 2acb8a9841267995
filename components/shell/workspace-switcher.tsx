"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { NewWorkspaceDialog } from "@/components/settings/workspace";
import { ROLE_LABEL, type Role } from "@/lib/roles";

import { setWorkspaceCookie } from "./workspace-cookie";

const NEW = "__new__";

/** "Owner", "Admin", "Member", "Client" — short enough for the sidebar. */
const shortRole = (role: Role) => ROLE_LABEL[role].replace(/ \(.*\)$/, "");

/**
 * The workspace name with the user's role in it; a picker when the user belongs to more than one.
 * "New workspace…" creates one the user owns (any role may).
 */
export function WorkspaceSwitcher({
  workspaces,
  currentId,
}: {
  workspaces: { id: string; name: string; role: Role }[];
  currentId: string;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const current = workspaces.find((w) => w.id === currentId);
  const dialog = <NewWorkspaceDialog open={creating} onClose={() => setCreating(false)} />;
  if (workspaces.length < 2) {
    return (
      <div className="mt-1 space-y-0.5">
        <p className="truncate text-sm text-gray-600" data-testid="workspace-name" title={current?.name}>
          {current?.name}
        </p>
        <p className="flex items-center justify-between text-xs text-gray-500">
          <span>{current ? shortRole(current.role) : ""}</span>
          <button type="button" className="text-indigo-700 hover:underline" onClick={() => setCreating(true)}>
            New workspace…
          </button>
        </p>
        {dialog}
      </div>
    );
  }
  return (
    <>
      <select
        aria-label="Workspace"
        data-testid="workspace-name"
        className="mt-1 w-full rounded border border-gray-300 bg-white px-1.5 py-1 text-sm"
        value={currentId}
        onChange={(e) => {
          if (e.target.value === NEW) {
            setCreating(true);
            return;
          }
          setWorkspaceCookie(e.target.value);
          // Everything cached belongs to the previous workspace.
          queryClient.clear();
          router.refresh();
        }}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} — {shortRole(w.role)}
          </option>
        ))}
        <option value={NEW}>New workspace…</option>
      </select>
      {dialog}
    </>
  );
}
