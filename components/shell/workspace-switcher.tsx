"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";

const COOKIE = "outreach_workspace"; // read by the API edge and the dashboard layout

/** The workspace name; a picker when the user belongs to more than one. */
export function WorkspaceSwitcher({ workspaces, currentId }: { workspaces: { id: string; name: string }[]; currentId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const current = workspaces.find((w) => w.id === currentId);
  if (workspaces.length < 2) {
    return (
      <p className="mt-1 truncate text-sm text-gray-600" data-testid="workspace-name" title={current?.name}>
        {current?.name}
      </p>
    );
  }
  return (
    <select
      aria-label="Workspace"
      data-testid="workspace-name"
      className="mt-1 w-full rounded border border-gray-300 bg-white px-1.5 py-1 text-sm"
      value={currentId}
      onChange={(e) => {
        // biome-ignore lint/suspicious/noDocumentCookie: the server reads this cookie; the Cookie Store API is not in every browser yet
        document.cookie = `${COOKIE}=${encodeURIComponent(e.target.value)}; path=/; max-age=31536000; samesite=lax`;
        // Everything cached belongs to the previous workspace.
        queryClient.clear();
        router.refresh();
      }}
    >
      {workspaces.map((w) => (
        <option key={w.id} value={w.id}>
          {w.name}
        </option>
      ))}
    </select>
  );
}
