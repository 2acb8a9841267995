"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { ShowChecklistButton } from "@/components/onboarding/show-checklist";
import { cn } from "@/components/ui/cn";
import { hasRole, type Role } from "@/lib/roles";
import { useCan, useMember } from "./member-context";
import { NAV_ITEMS } from "./nav";
import { SignOutButton } from "./sign-out-button";
import { WorkspaceSwitcher } from "./workspace-switcher";

const PANEL_ID = "sidebar-panel";

/**
 * The dashboard's navigation. From the `md` breakpoint up it is a column beside the page that runs its
 * whole height (its contents stay in view while the page scrolls); below it, a top bar with a menu
 * button that opens the same column over the page, closed again by a link, the backdrop or Escape.
 */
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
  const [open, setOpen] = useState(false);
  // A link followed inside the menu closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path changing is the trigger
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <>
      <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center justify-between border-b border-gray-200 bg-white px-4 md:hidden">
        <Link href="/" className="text-lg font-semibold tracking-tight text-indigo-700">
          Outreach
        </Link>
        <button
          type="button"
          aria-label="Open menu"
          aria-expanded={open}
          aria-controls={PANEL_ID}
          onClick={() => setOpen(true)}
          className="rounded-md p-2 text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <MenuIcon />
        </button>
      </header>
      {open && <div aria-hidden className="fixed inset-0 z-40 bg-gray-900/40 md:hidden" onClick={() => setOpen(false)} />}
      <aside
        id={PANEL_ID}
        aria-label="Sidebar"
        className={cn(
          "fixed inset-y-0 left-0 z-50 w-64 border-r border-gray-200 bg-white transition-transform",
          "md:static md:z-auto md:w-56 md:shrink-0 md:translate-x-0 md:transition-none",
          // Closed on a small screen: out of view, and out of the tab order and the accessibility tree.
          open ? "translate-x-0 shadow-xl" : "-translate-x-full max-md:invisible",
        )}
      >
        <div className="flex h-full flex-col overflow-y-auto md:sticky md:top-0 md:h-screen">
          <SidebarContents user={user} workspaces={workspaces} currentWorkspaceId={currentWorkspaceId} onClose={() => setOpen(false)} />
        </div>
      </aside>
    </>
  );
}

function SidebarContents({
  user,
  workspaces,
  currentWorkspaceId,
  onClose,
}: {
  user: { email: string; name: string | null };
  workspaces: { id: string; name: string; role: Role }[];
  currentWorkspaceId: string;
  onClose: () => void;
}) {
  const pathname = usePathname();
  const role = useMember()?.role ?? "client";
  const member = useCan("member");
  return (
    <>
      <div className="border-b border-gray-200 px-4 py-4">
        <div className="flex items-center justify-between">
          <p className="text-lg font-semibold tracking-tight text-indigo-700">Outreach</p>
          <button
            type="button"
            aria-label="Close menu"
            onClick={onClose}
            className="rounded-md p-1 text-gray-500 hover:bg-gray-100 md:hidden"
          >
            ✕
          </button>
        </div>
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
        {member && <ShowChecklistButton />}
        {/* The whole address, wrapped where it must: a cut-off address cannot tell two accounts apart. */}
        <Link
          href="/settings/profile"
          className="block text-xs text-gray-600 hover:text-indigo-700 hover:underline"
          title={`${user.email} — your profile`}
          data-testid="sidebar-user"
        >
          {user.name && <span className="block truncate font-medium text-gray-800">{user.name}</span>}
          <span className="block [overflow-wrap:anywhere]">{user.email}</span>
        </Link>
        <SignOutButton />
      </div>
    </>
  );
}

function MenuIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round">
      <path d="M3 5h14M3 10h14M3 15h14" />
    </svg>
  );
}
