"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { hasRole, ROLE_LABEL } from "@/lib/roles";
import { useMember } from "./member-context";
import { NAV_ITEMS } from "./nav";

/**
 * A page of an area the signed-in role may not open (a client seat on /leads, say) shows why instead of
 * a page of refused requests: the API would answer each of them 403 all the same.
 */
export function RoleGate({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const member = useMember();
  const area = NAV_ITEMS.find((i) => pathname === i.href || pathname.startsWith(`${i.href}/`));
  if (!member || !area || hasRole(member.role, area.minRole)) return children;
  return (
    <div className="mx-auto mt-16 max-w-md space-y-3 rounded-xl border border-gray-200 bg-white p-6 text-sm" data-testid="role-gate">
      <h1 className="text-lg font-semibold text-gray-900">{area.label} is not part of your seat</h1>
      <p className="text-gray-700">
        You are a {ROLE_LABEL[member.role].toLowerCase()} in this workspace. Ask an owner or admin if you need more access.
      </p>
      <Link href="/campaigns" className="font-medium text-indigo-700 hover:underline">
        Go to Campaigns
      </Link>
    </div>
  );
}
