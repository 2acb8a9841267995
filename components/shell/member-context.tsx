"use client";

import { createContext, type ReactNode, useContext } from "react";
import { hasRole, type Role } from "@/lib/roles";

/** Who is signed in and with which role in the current workspace, for the dashboard's client components. */
export interface MemberInfo {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  workspaceId: string;
}

const MemberContext = createContext<MemberInfo | null>(null);

export function MemberProvider({ member, children }: { member: MemberInfo; children: ReactNode }) {
  return <MemberContext.Provider value={member}>{children}</MemberContext.Provider>;
}

/** The signed-in member; null outside the dashboard (sign-in pages). */
export function useMember(): MemberInfo | null {
  return useContext(MemberContext);
}

/**
 * Whether the signed-in role has at least `min` (lib/roles.ts): the dashboard hides what a role
 * cannot do; the API refuses it all the same. Outside the dashboard (no member) nothing is hidden.
 */
export function useCan(min: Role): boolean {
  const m = useMember();
  return !m || hasRole(m.role, min);
}
