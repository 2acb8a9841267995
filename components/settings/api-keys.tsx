"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { ApiError, describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import type { BodyOf, ResponseOf } from "@/lib/client";
import { NewKeyBox } from "./new-key-box";
import { SettingsNav } from "./settings-nav";

/** The answers' types, from the client generated from the OpenAPI document. */
type ApiKeyView = ResponseOf<"/account/api-keys", "get">["apiKeys"][number];
type CreatedKey = ResponseOf<"/account/api-keys", "post">;
type Scope = NonNullable<BodyOf<"/account/api-keys", "post">["scope"]>;

const KEYS = ["apiKeys"];

const EXPIRY = [
  { value: "never", label: "Never" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In 1 year" },
  { value: "date", label: "On a date…" },
];

/** The chosen expiry as an ISO date-time with offset, as the API wants it; null for never. */
function expiresAt(choice: string, date: string): string | null {
  if (choice === "never") return null;
  if (choice === "date") return date ? new Date(`${date}T23:59:59`).toISOString() : null;
  return new Date(Date.now() + Number(choice) * 86_400_000).toISOString();
}

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** The keys, the create form's state and the create and revoke mutations. */
function useApiKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: KEYS,
    queryFn: ({ signal }) => data(client.GET("/account/api-keys", { signal })).then((r) => r.apiKeys),
  });
  const [form, setForm] = useState<{ name: string; scope: Scope; expiry: string; date: string }>({
    name: "",
    scope: "full",
    expiry: "never",
    date: "",
  });
  const [created, setCreated] = useState<CreatedKey>();
  const [revoking, setRevoking] = useState<ApiKeyView>();

  const create = useMutation({
    mutationFn: () =>
      data(
        client.POST("/account/api-keys", {
          body: { name: form.name.trim() || undefined, scope: form.scope, expiresAt: expiresAt(form.expiry, form.date) },
        }),
      ),
    onSuccess: async (k) => {
      setCreated(k);
      setForm({ name: "", scope: "full", expiry: "never", date: "" });
      await queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => data(client.DELETE("/account/api-keys/{id}", { params: { path: { id } } })),
    onSuccess: async () => {
      setRevoking(undefined);
      await queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    setCreated(undefined);
    create.mutate();
  }

  const fieldErrors = create.error instanceof ApiError ? create.error.fieldErrors : {};

  return { keys, form, setForm, created, setCreated, revoking, setRevoking, create, revoke, submit, fieldErrors };
}

type KeysState = ReturnType<typeof useApiKeys>;

export function ApiKeys() {
  const k = useApiKeys();
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">API keys</h1>
        <div className="my-3">
          <SettingsNav active="api-keys" />
        </div>
        <p className="max-w-2xl text-sm text-gray-600">
          Send a key as <code className="rounded bg-gray-100 px-1">Authorization: Bearer &lt;key&gt;</code>. A key acts with your role in
          this workspace. Read-only keys may call read routes only. See the{" "}
          <Link className="text-indigo-700 hover:underline" href="/docs/api">
            API reference
          </Link>
          .
        </p>
      </div>

      <CreateKeyForm k={k} />

      {k.created && <NewKeyBox apiKey={k.created} onDismiss={() => k.setCreated(undefined)} />}

      {k.keys.error && <Alert tone="error">Could not load keys: {describeError(k.keys.error)}</Alert>}
      <KeysTable keys={k.keys.data} onRevoke={k.setRevoking} />

      <RevokeDialog k={k} />
    </div>
  );
}

function CreateKeyForm({ k }: { k: KeysState }) {
  return (
    <form onSubmit={k.submit} className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 className="text-sm font-semibold text-gray-900">Create a key</h2>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-4">
        <Field label="Name" errors={k.fieldErrors.name}>
          <Input
            value={k.form.name}
            maxLength={100}
            placeholder="e.g. CRM sync"
            onChange={(e) => k.setForm((f) => ({ ...f, name: e.target.value }))}
          />
        </Field>
        <Field label="Access" errors={k.fieldErrors.scope}>
          <Select value={k.form.scope} onChange={(e) => k.setForm((f) => ({ ...f, scope: e.target.value as Scope }))}>
            <option value="full">Full access</option>
            <option value="read">Read-only</option>
          </Select>
        </Field>
        <Field label="Expires" errors={k.fieldErrors.expiresAt}>
          <Select value={k.form.expiry} onChange={(e) => k.setForm((f) => ({ ...f, expiry: e.target.value }))}>
            {EXPIRY.map((x) => (
              <option key={x.value} value={x.value}>
                {x.label}
              </option>
            ))}
          </Select>
        </Field>
        {k.form.expiry === "date" && (
          <Field label="Expiry date">
            <Input type="date" required value={k.form.date} onChange={(e) => k.setForm((f) => ({ ...f, date: e.target.value }))} />
          </Field>
        )}
      </div>
      {k.create.error && <Alert tone="error">{describeError(k.create.error)}</Alert>}
      <Button type="submit" disabled={k.create.isPending}>
        {k.create.isPending ? "Creating…" : "Create key"}
      </Button>
    </form>
  );
}

function KeysTable({ keys, onRevoke }: { keys: ApiKeyView[] | undefined; onRevoke: (k: ApiKeyView) => void }) {
  return (
    <Table aria-label="API keys">
      <THead>
        <tr>
          <Th>Name</Th>
          <Th>Key</Th>
          <Th>Access</Th>
          <Th>Status</Th>
          <Th>Created</Th>
          <Th>Last used</Th>
          <Th>Expires</Th>
          <Th />
        </tr>
      </THead>
      <TBody>
        {keys?.map((k) => (
          <Tr key={k.id}>
            <Td className="font-medium">{k.name}</Td>
            <Td className="font-mono text-xs text-gray-600">{k.prefix}…</Td>
            <Td>{k.scope === "full" ? "Full access" : "Read-only"}</Td>
            <Td>
              <Badge tone={k.status === "active" ? "green" : k.status === "expired" ? "yellow" : "red"}>{k.status}</Badge>
            </Td>
            <Td className="whitespace-nowrap text-gray-600">{when(k.createdAt)}</Td>
            <Td className="whitespace-nowrap text-gray-600">{when(k.lastUsedAt)}</Td>
            <Td className="whitespace-nowrap text-gray-600">{k.expiresAt ? when(k.expiresAt) : "Never"}</Td>
            <Td className="text-right">
              {k.status !== "revoked" && (
                <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onRevoke(k)}>
                  Revoke
                </Button>
              )}
            </Td>
          </Tr>
        ))}
        {keys?.length === 0 && (
          <tr>
            <td colSpan={8} className="px-3 py-8 text-center text-sm text-gray-600">
              No API keys yet.
            </td>
          </tr>
        )}
      </TBody>
    </Table>
  );
}

function RevokeDialog({ k }: { k: KeysState }) {
  return (
    <Dialog
      open={!!k.revoking}
      onClose={() => {
        k.setRevoking(undefined);
        k.revoke.reset();
      }}
      title={`Revoke “${k.revoking?.name ?? ""}”?`}
      footer={
        <>
          <Button variant="secondary" onClick={() => k.setRevoking(undefined)}>
            Cancel
          </Button>
          <Button variant="danger" disabled={k.revoke.isPending} onClick={() => k.revoking && k.revoke.mutate(k.revoking.id)}>
            {k.revoke.isPending ? "Revoking…" : "Revoke"}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700">
        <p>Requests with this key are refused (401) from now on. This cannot be undone.</p>
        {k.revoke.error && <Alert tone="error">{describeError(k.revoke.error)}</Alert>}
      </div>
    </Dialog>
  );
}
