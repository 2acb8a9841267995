"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { hasRole, type Role } from "@/lib/auth/roles";
import { useMember } from "./member-context";
import { NAV_ITEMS } from "./nav";
import { SignOutButton } from "./sign-out-button";
import { WorkspaceSwitcher } from "./workspace-switcher";

export function Sidebar({
  user,
  workspaces,
  currentWorkspaceId,
}: {
  user: { email: string; name: string | null };
  workspaces: { id: string; name: string; role: Role }[];
  currentWorkspaceId: string;
}) {
  const pathname = usePathname();
  const role = useMember()?.role ?? "client";
  return (
    <aside className="sticky top-0 flex h-screen w-56 shrink-0 flex-col border-r border-gray-200 bg-white">
      <div className="border-b border-gray-200 px-4 py-4">
        <p className="text-lg font-semibold tracking-tight text-indigo-700">Outreach</p>
        <WorkspaceSwitcher workspaces={workspaces} currentId={currentWorkspaceId} />
      </div>
      <nav aria-label="Main" className="flex-1 space-y-0.5 px-2 py-3">
        {NAV_ITEMS.filter((item) => hasRole(role, item.minRole)).map((item) => {
          const active = pathname === item.href || pathname.startsWith(item.href + "/");
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-current={active ? "page" : undefined}
              className={cn(
                "block rounded-md px-3 py-1.5 text-sm",
                active ? "bg-indigo-50 font-medium text-indigo-700" : "text-gray-700 hover:bg-gray-100",
              )}
            >
              {item.label}
            </Link>
          );
        })}
      </nav>
      <div className="space-y-2 border-t border-gray-200 px-4 py-3">
        <Link
          href="/settings/profile"
          className="block truncate text-xs text-gray-600 hover:text-indigo-700 hover:underline"
          title={`${user.email} — your profile`}
        >
          {user.name ? `${user.name} · ` : ""}
          {user.email}
        </Link>
        <SignOutButton />
      </div>
    </aside>
  );
}
