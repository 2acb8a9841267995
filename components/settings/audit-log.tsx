"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { client, data, describeError } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { usePaging } from "@/components/ui/use-paging";
import type { AuditAction } from "@/lib/audit/record";
import type { QueryOf, ResponseOf } from "@/lib/client";
import { SettingsNav } from "./settings-nav";

type Entry = ResponseOf<"/account/audit-log", "get">["entries"][number];
type Query = NonNullable<QueryOf<"/account/audit-log", "get">>;

/** Every action the log records, as the table and the filter name it (complete: the type asks for each). */
export const ACTION_LABELS: Record<AuditAction, string> = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Sign-in failed",
  "auth.2fa_enabled": "Two-factor sign-in turned on",
  "auth.2fa_disabled": "Two-factor sign-in turned off",
  "auth.recovery_code_used": "Recovery code used",
  "auth.password_changed": "Password changed",
  "auth.password_reset": "Password reset",
  "auth.email_changed": "Email changed",
  "auth.sessions_revoked": "Sessions signed out",
  "member.invited": "Member invited",
  "member.invitation_revoked": "Invitation revoked",
  "member.joined": "Member joined",
  "member.role_changed": "Member's role changed",
  "member.removed": "Member removed",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "mailbox.connected": "Mailbox connected",
  "mailbox.credentials_changed": "Mailbox login changed",
  "mailbox.deleted": "Mailbox deleted",
  "webhook.created": "Webhook created",
  "webhook.updated": "Webhook updated",
  "webhook.secret_rotated": "Webhook secret rotated",
  "webhook.deleted": "Webhook deleted",
  "campaign.deleted": "Campaign deleted",
  "leads.bulk_deleted": "Leads deleted in bulk",
  "report.leads_csv": "Leads exported (leads.csv)",
  "settings.changed": "Settings changed",
  "workspace.created": "Workspace created",
};
const ACTIONS = Object.keys(ACTION_LABELS) as AuditAction[];

const actionLabel = (a: string) => ACTION_LABELS[a as AuditAction] ?? a;

function who(e: Entry): string {
  if (e.actor.type === "api_key") return `API key: ${e.actor.label ?? e.actor.id ?? "deleted key"}`;
  if (e.actor.type === "system") return "System";
  return e.actor.label ?? e.actor.id ?? "Unknown user";
}

function detailValue(v: unknown): string {
  if (Array.isArray(v)) return v.map(detailValue).join(", ") || "—";
  if (v && typeof v === "object") return JSON.stringify(v);
  return v === null || v === undefined || v === "" ? "—" : String(v);
}

function Details({ detail }: { detail: Record<string, unknown> }) {
  const entries = Object.entries(detail);
  if (entries.length === 0) return <p className="text-xs text-gray-500">No details.</p>;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs">
      {entries.map(([k, v]) => (
        <Fragment key={k}>
          <dt className="font-medium text-gray-600">{k}</dt>
          <dd className="break-all text-gray-800">{detailValue(v)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The people the actor filter offers: the workspace's members (owners and admins may list them). */
function useMembers() {
  return useQuery({
    queryKey: ["members"],
    queryFn: ({ signal }) => data(client.GET("/account/members", { signal })).then((r) => r.members),
    staleTime: 60_000,
  });
}

const BLANK = { action: "", actorId: "", from: "", to: "" };

function Filters({ values, onChange }: { values: typeof BLANK; onChange: (patch: Partial<typeof BLANK>) => void }) {
  const members = useMembers();
  return (
    <div className="grid grid-cols-1 items-end gap-3 rounded-lg border border-gray-200 bg-white p-4 md:grid-cols-5">
      <Field label="Action">
        <Select value={values.action} onChange={(e) => onChange({ action: e.target.value })}>
          <option value="">All actions</option>
          {ACTIONS.map((a) => (
            <option key={a} value={a}>
              {ACTION_LABELS[a]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Who" hint="A member, with the API keys they created">
        <Select value={values.actorId} onChange={(e) => onChange({ actorId: e.target.value })}>
          <option value="">Anyone</option>
          {members.data?.map((m) => (
            <option key={m.userId} value={m.userId}>
              {m.name ? `${m.name} (${m.email})` : m.email}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="From">
        <Input type="date" value={values.from} onChange={(e) => onChange({ from: e.target.value })} />
      </Field>
      <Field label="To">
        <Input type="date" value={values.to} onChange={(e) => onChange({ to: e.target.value })} />
      </Field>
      <div>
        <Button variant="secondary" onClick={() => onChange(BLANK)}>
          Clear filters
        </Button>
      </div>
    </div>
  );
}

function EntryRow({ e }: { e: Entry }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tr>
        <Td className="whitespace-nowrap text-gray-600">{new Date(e.at).toLocaleString()}</Td>
        <Td>{who(e)}</Td>
        <Td className="font-medium">{actionLabel(e.action)}</Td>
        <Td className="max-w-xs truncate" title={e.target?.label ?? undefined}>
          {e.target ? (e.target.label ?? `${e.target.type} ${e.target.id ?? ""}`) : "—"}
        </Td>
        <Td className="font-mono text-xs text-gray-600">{e.ip ?? "—"}</Td>
        <Td className="text-right">
          <Button variant="ghost" size="sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            {open ? "Hide details" : "Details"}
          </Button>
        </Td>
      </Tr>
      {open && (
        <tr className="bg-gray-50">
          <td colSpan={6} className="px-3 py-2">
            <Details detail={e.detail} />
          </td>
        </tr>
      )}
    </>
  );
}

/** Settings → Audit log: who did what in the workspace, newest first, with filters (owners and admins). */
export function AuditLog() {
  const allowed = useCan("admin");
  const paging = usePaging(50, BLANK);
  const q = paging.query;
  const query: Query = {
    page: q.page,
    limit: q.limit,
    action: (q.action || undefined) as Query["action"],
    actorId: q.actorId || undefined,
    from: q.from || undefined,
    to: q.to || undefined,
  };
  const log = useQuery({
    queryKey: ["audit-log", query],
    queryFn: ({ signal }) => data(client.GET("/account/audit-log", { params: { query }, signal })),
    placeholderData: keepPreviousData,
    enabled: allowed,
  });

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">Audit log</h1>
        <div className="my-3">
          <SettingsNav active="audit-log" />
        </div>
        <p className="max-w-2xl text-sm text-gray-600">
          Who did what in this workspace, and from where: sign-ins and security changes of its members, API keys, mailboxes, webhooks,
          deletions, exports and settings. Entries are kept for 365 days.
        </p>
      </div>
      {!allowed && <Alert tone="info">Only owners and admins can read the audit log.</Alert>}
      {allowed && (
        <>
          <Filters values={q} onChange={paging.filter} />
          {log.error && <Alert tone="error">Could not load the audit log: {describeError(log.error)}</Alert>}
          <Table aria-label="Audit log">
            <THead>
              <tr>
                <Th>When</Th>
                <Th>Who</Th>
                <Th>Action</Th>
                <Th>Target</Th>
                <Th>IP</Th>
                <Th />
              </tr>
            </THead>
            <TBody>
              {log.data?.entries.map((e) => (
                <EntryRow key={e.id} e={e} />
              ))}
              {log.data?.entries.length === 0 && (
                <tr>
                  <td colSpan={6} className="px-3 py-8 text-center text-sm text-gray-600">
                    No entries match.
                  </td>
                </tr>
              )}
            </TBody>
          </Table>
          {log.data && (
            <Pager
              page={paging.page}
              limit={paging.limit}
              total={log.data.total}
              shown={log.data.entries.length}
              sizes={[25, 50, 100, 200]}
              onPage={paging.onPage}
              onLimit={paging.onLimit}
            />
          )}
        </>
      )}
    </div>
  );
}
