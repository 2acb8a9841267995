"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { Field, Input } from "@/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { SettingsNav } from "./settings-nav";
import { type TrackingDomain, trackingDomainKeys, useTrackingDomains } from "./tracking-domain-queries";

const TONE: Record<TrackingDomain["status"], BadgeTone> = { PENDING: "yellow", VERIFIED: "green", FAILING: "red" };

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trackingDomainKeys.list });
}

/** The DNS record to create for a domain: its name, the type and the target. */
function CnameRecord({ d }: { d: TrackingDomain }) {
  return (
    <p className="text-xs text-gray-600" data-testid="cname-record">
      CNAME <span className="font-mono text-gray-900">{d.domain}</span> → <span className="font-mono text-gray-900">{d.cnameTarget}</span>
    </p>
  );
}

/** A new domain: the API refuses a URL, a port, a host without a dot or APP_URL's own host, and says why at the field. */
function AddDomain() {
  const refresh = useRefresh();
  const [domain, setDomain] = useState("");
  const [added, setAdded] = useState<TrackingDomain>();
  const add = useMutation({
    mutationFn: () => data(client.POST("/settings/tracking-domains", { body: { domain: domain.trim() } })),
    onSuccess: async (d) => {
      setAdded(d);
      setDomain("");
      await refresh();
    },
  });
  const fe = add.error instanceof ApiError ? add.error.fieldErrors : {};
  function submit(e: FormEvent) {
    e.preventDefault();
    if (domain.trim()) add.mutate();
  }
  return (
    <form
      onSubmit={submit}
      className="space-y-3 rounded-lg border border-gray-200 bg-white p-4"
      noValidate
      aria-label="Add a tracking domain"
    >
      <h2 className="text-sm font-semibold text-gray-900">Add a tracking domain</h2>
      <Field label="Domain" errors={fe.domain} hint="A host of your own, such as track.example.com: no https://, path or port.">
        <Input
          value={domain}
          maxLength={253}
          placeholder="track.example.com"
          onChange={(e) => {
            add.reset();
            setDomain(e.target.value);
          }}
        />
      </Field>
      {add.error && !fe.domain && <Alert tone="error">{describeError(add.error)}</Alert>}
      {added && !add.error && (
        <Alert tone="success">
          <span>
            Added {added.domain}. Create this DNS record at your DNS host, then press Verify:{" "}
            <span className="font-mono">
              {added.domain} CNAME {added.cnameTarget}
            </span>
          </span>
        </Alert>
      )}
      <Button type="submit" disabled={add.isPending || !domain.trim()}>
        {add.isPending ? "Adding…" : "Add domain"}
      </Button>
    </form>
  );
}

/** Verify, make default and delete for one domain; each shows the API's message when it fails. */
function Actions({ d, onDelete }: { d: TrackingDomain; onDelete: () => void }) {
  const refresh = useRefresh();
  const verify = useMutation({
    mutationFn: () => data(client.POST("/settings/tracking-domains/{id}/verify", { params: { path: { id: d.id } } })),
    onSettled: refresh,
  });
  const setDefault = useMutation({
    mutationFn: (isDefault: boolean) =>
      data(client.PATCH("/settings/tracking-domains/{id}", { params: { path: { id: d.id } }, body: { isDefault } })),
    onSettled: refresh,
  });
  const error = verify.error ?? setDefault.error;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap justify-end gap-1">
        <Button variant="ghost" size="sm" aria-label={`Verify ${d.domain}`} disabled={verify.isPending} onClick={() => verify.mutate()}>
          {verify.isPending ? "Checking…" : "Verify"}
        </Button>
        {d.status === "VERIFIED" && !d.isDefault && (
          <Button variant="ghost" size="sm" aria-label={`Make ${d.domain} the default`} onClick={() => setDefault.mutate(true)}>
            Make default
          </Button>
        )}
        {d.isDefault && (
          <Button variant="ghost" size="sm" aria-label={`Stop using ${d.domain} as the default`} onClick={() => setDefault.mutate(false)}>
            Unset default
          </Button>
        )}
        <Button variant="ghost" size="sm" aria-label={`Delete ${d.domain}`} onClick={onDelete}>
          Delete
        </Button>
      </div>
      {error && (
        <p className="text-right text-xs text-red-600" role="alert">
          {describeError(error)}
        </p>
      )}
    </div>
  );
}

function DomainTable({ domains, canEdit }: { domains: TrackingDomain[]; canEdit: boolean }) {
  const refresh = useRefresh();
  const [deleting, setDeleting] = useState<TrackingDomain>();
  const remove = useMutation({
    mutationFn: (id: string) => data(client.DELETE("/settings/tracking-domains/{id}", { params: { path: { id } } })),
    onSuccess: async () => {
      setDeleting(undefined);
      await refresh();
    },
  });
  return (
    <>
      <Table aria-label="Tracking domains">
        <THead>
          <tr>
            <Th>Domain</Th>
            <Th>Status</Th>
            <Th>Last check</Th>
            {canEdit && <Th className="text-right">Actions</Th>}
          </tr>
        </THead>
        <TBody>
          {domains.length === 0 && (
            <tr>
              <Td colSpan={4} className="text-gray-500">
                No tracking domains yet: links in emails use this installation's own host.
              </Td>
            </tr>
          )}
          {domains.map((d) => (
            <Tr key={d.id} data-testid="tracking-domain-row">
              <Td>
                <div className="font-medium text-gray-900">
                  {d.domain} {d.isDefault && <Badge tone="indigo">Default</Badge>}
                </div>
                <CnameRecord d={d} />
              </Td>
              <Td>
                <Badge tone={TONE[d.status]}>{d.status}</Badge>
                {d.lastError && <p className="mt-1 max-w-md text-xs text-red-600">{d.lastError}</p>}
              </Td>
              <Td className="text-xs text-gray-600">{d.lastCheckedAt ? new Date(d.lastCheckedAt).toLocaleString() : "never"}</Td>
              {canEdit && (
                <Td className="text-right">
                  <Actions
                    d={d}
                    onDelete={() => {
                      remove.reset();
                      setDeleting(d);
                    }}
                  />
                </Td>
              )}
            </Tr>
          ))}
        </TBody>
      </Table>
      <ConfirmDeleteDialog
        open={!!deleting}
        title={`Delete tracking domain ${deleting?.domain ?? ""}?`}
        pending={remove.isPending}
        error={remove.error ? describeError(remove.error) : undefined}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCancel={() => setDeleting(undefined)}
        onClose={() => setDeleting(undefined)}
      >
        Campaigns that chose it track through the workspace's default again. Links in emails already sent on it stop working once its DNS no
        longer points here.
      </ConfirmDeleteDialog>
    </>
  );
}

/** Settings → Tracking domains: the workspace's own hosts for the open pixel, click redirects and unsubscribe links. */
export function TrackingDomainsSettings() {
  const canEdit = useCan("admin");
  const domains = useTrackingDomains();
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">Tracking domains</h1>
        <div className="my-3">
          <SettingsNav active="tracking-domains" />
        </div>
        <p className="text-sm text-gray-600">
          The open pixel, click redirects and unsubscribe links of your emails can use a domain of your own instead of this installation's
          shared host. Add it, create the CNAME record shown, verify it, and make it the default or pick it in a campaign's settings.
        </p>
      </div>
      {canEdit && <AddDomain />}
      {domains.error && <Alert tone="error">Could not load the tracking domains: {describeError(domains.error)}</Alert>}
      {domains.isPending && <p className="text-sm text-gray-500">Loading…</p>}
      {domains.data && <DomainTable domains={domains.data} canEdit={canEdit} />}
    </div>
  );
}
