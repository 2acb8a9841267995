/** Every area of the dashboard; the ones not built yet show a "coming soon" page. */
export const NAV_ITEMS = [
  { href: "/leads", label: "Leads" },
  { href: "/finder", label: "Finder" },
  { href: "/campaigns", label: "Campaigns" },
  { href: "/mailboxes", label: "Mailboxes" },
  { href: "/domains", label: "Domains" },
  { href: "/deliverability", label: "Deliverability" },
  { href: "/inbox", label: "Inbox" },
  { href: "/reply-agents", label: "Reply agents" },
  { href: "/analytics", label: "Analytics" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/settings", label: "Settings" },
  { href: "/docs/api", label: "API reference" },
] as const;
