/**
 * Who may do what in a workspace: the one table of rights (docs/teams.md shows the same table).
 *
 * - owner: everything. Only an owner makes or unmakes owners, deletes the workspace or requires
 *   two-factor sign-in for every member.
 * - admin: everything else, including members and invitations (not owners), the audit log, the
 *   workspace's settings, and the owner-or-admin gates (deleting a campaign and its preview, bulk lead
 *   delete, the leads CSV).
 * - member: every read and write of the API except those gates, members, the audit log and the
 *   workspace's settings.
 * - client: a read-only seat for an agency's customer: campaigns with their stats and sequences,
 *   analytics, reports (not the leads CSV), the inbox read-only. No mailboxes, leads, API keys,
 *   webhooks, members or settings; 403 on every write. Their own profile, password, two-factor and
 *   sessions are theirs to manage.
 *
 * An API key acts with the role of the member who created it; a client cannot create keys.
 */
export const ROLES = ["owner", "admin", "member", "client"] as const;
export type Role = (typeof ROLES)[number];

/** Higher ranks include every right of the lower ones. */
export const ROLE_RANK: Record<Role, number> = { client: 0, member: 1, admin: 2, owner: 3 };

/** The least role a route needs, when it says so itself (`RouteDef.role`). */
export type MinRole = Role;

/** The areas (the API's tags) whose reads a client seat may make. */
const CLIENT_READ_TAGS: ReadonlySet<string> = new Set(["Campaigns", "Sequence steps", "Analytics", "Reports", "Inbox", "CRM", "Timezones"]);

/** Routes of these tags that a client still may not read (settings live under Reports' tag). */
const CLIENT_DENIED_PATHS: ReadonlySet<string> = new Set(["/settings/branding", "/reports/leads.csv"]);

/** The rights table, as the docs and the dashboard show it: one row per right, one column per role. */
export const RIGHTS_TABLE: { right: string; roles: Record<Role, boolean> }[] = [
  { right: "Read campaigns, their stats and sequences, analytics, reports, the inbox", roles: all(true) },
  { right: "Manage own profile, password, two-factor sign-in and sessions", roles: all(true) },
  { right: "Read leads, mailboxes, domains, webhooks, the finder, reply agents", roles: from("member") },
  { right: "Every write of the API (leads, campaigns, mailboxes, replies, webhooks …)", roles: from("member") },
  { right: "Create API keys (they act with their creator's role)", roles: from("member") },
  { right: "Delete campaigns, bulk-delete leads, export the leads CSV", roles: from("admin") },
  { right: "Invite, change and remove members and clients; read the audit log", roles: from("admin") },
  { right: "Change workspace settings (name, branding, the AI provider and AI settings)", roles: from("admin") },
  { right: "Make or remove owners; require two-factor sign-in for everyone", roles: from("owner") },
];

function all(v: boolean): Record<Role, boolean> {
  return { owner: v, admin: v, member: v, client: v };
}
function from(min: Role): Record<Role, boolean> {
  return Object.fromEntries(ROLES.map((r) => [r, ROLE_RANK[r] >= ROLE_RANK[min]])) as Record<Role, boolean>;
}

export function hasRole(role: Role, min: Role): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[min];
}

/**
 * The least role a route needs: its own `role` when it names one; otherwise a client may make the
 * reads of the client areas and a member everything else.
 */
export function routeMinRole(def: { method: string; path: string; tag: string; role?: Role }): Role {
  if (def.role) return def.role;
  if (def.method === "GET" && CLIENT_READ_TAGS.has(def.tag) && !CLIENT_DENIED_PATHS.has(def.path)) return "client";
  return "member";
}

export const ROLE_LABEL: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member", client: "Client (read-only)" };

/**
 * The routes a session may still use while its workspace requires two-factor sign-in and the user has
 * not turned it on: their own account (profile, password, two-factor, sessions, workspaces list) and
 * the setting itself, to read. Everything else, member management included, waits for enrolment.
 */
const ENROLMENT_PATHS: ReadonlySet<string> = new Set([
  "GET /account",
  "PATCH /account/profile",
  "POST /account/email",
  "POST /account/password",
  "GET /account/sessions",
  "POST /account/sessions/revoke-others",
  "DELETE /account/sessions/{id}",
  "GET /account/two-factor",
  "POST /account/two-factor/setup",
  "POST /account/two-factor/enable",
  "GET /settings/security",
]);

export function usableBeforeEnrolment(def: { method: string; path: string }): boolean {
  return ENROLMENT_PATHS.has(`${def.method} ${def.path}`);
}
