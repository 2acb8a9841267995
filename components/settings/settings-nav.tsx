"use client";

import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { hasRole, type Role } from "@/lib/roles";
import { useMember } from "@/components/shell/member-context";

/** Every section of Settings with the least role that sees it (lib/roles.ts has the rights). */
export const SETTINGS_SECTIONS = [
  { id: "profile", href: "/settings/profile", label: "Profile", minRole: "client" },
  { id: "security", href: "/settings/security", label: "Security", minRole: "client" },
  { id: "workspace", href: "/settings/workspace", label: "Workspace", minRole: "admin" },
  { id: "members", href: "/settings/members", label: "Members", minRole: "admin" },
  { id: "audit-log", href: "/settings/audit-log", label: "Audit log", minRole: "admin" },
  { id: "ai", href: "/settings/ai", label: "AI", minRole: "member" },
  { id: "branding", href: "/settings/branding", label: "Branding", minRole: "member" },
  { id: "tracking-domains", href: "/settings/tracking-domains", label: "Tracking domains", minRole: "member" },
  { id: "suppressions", href: "/settings/suppressions", label: "Suppressions", minRole: "member" },
  { id: "tags", href: "/settings/tags", label: "Tags", minRole: "member" },
  { id: "api-keys", href: "/settings/api-keys", label: "API keys", minRole: "member" },
  { id: "warmup-presets", href: "/settings?section=warmup-presets", label: "Warmup presets", minRole: "member" },
] as const satisfies readonly { id: string; href: string; label: string; minRole: Role }[];

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]["id"];

/** The sections of Settings the signed-in role may open, as links (each is its own page). */
export function SettingsNav({ active }: { active: SettingsSection }) {
  const role = useMember()?.role;
  const sections = SETTINGS_SECTIONS.filter((s) => !role || hasRole(role, s.minRole));
  return (
    <nav aria-label="Settings" className="flex flex-wrap gap-1 border-b border-gray-200">
      {sections.map((s) => (
        <Link
          key={s.id}
          href={s.href}
          aria-current={s.id === active ? "page" : undefined}
          className={cn(
            "-mb-px border-b-2 px-3 py-2 text-sm font-medium",
            s.id === active ? "border-indigo-600 text-indigo-700" : "border-transparent text-gray-600 hover:text-gray-900",
          )}
        >
          {s.label}
        </Link>
      ))}
    </nav>
  );
}
