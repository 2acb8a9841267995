import type { Role } from "@/lib/roles";

/** Every area of the dashboard, with the least role that sees it (a client seat sees the read-only areas). */
export const NAV_ITEMS = [
  { href: "/leads", label: "Leads", minRole: "member" },
  { href: "/finder", label: "Finder", minRole: "member" },
  { href: "/campaigns", label: "Campaigns", minRole: "client" },
  { href: "/mailboxes", label: "Mailboxes", minRole: "member" },
  { href: "/domains", label: "Domains", minRole: "member" },
  { href: "/deliverability", label: "Deliverability", minRole: "member" },
  { href: "/inbox", label: "Inbox", minRole: "client" },
  { href: "/reply-agents", label: "Reply agents", minRole: "member" },
  { href: "/analytics", label: "Analytics", minRole: "client" },
  { href: "/webhooks", label: "Webhooks", minRole: "member" },
  { href: "/settings", label: "Settings", minRole: "client" },
  { href: "/docs/api", label: "API reference", minRole: "member" },
] as const satisfies readonly { href: string; label: string; minRole: Role }[];
