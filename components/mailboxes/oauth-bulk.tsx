"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { Textarea } from "@/components/ui/textarea";
import { ApiError, client, data, describeError } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";

type ProviderId = "GOOGLE" | "MICROSOFT";
/** The `{provider}` path parameter of the OAuth routes. */
const on = (p: ProviderId) => ({ provider: p.toLowerCase() });

/** "Not set up yet" is a 404; anything else is an error to show. */
const noneOn404 = (e: unknown) => {
  if (e instanceof ApiError && e.status === 404) return null;
  throw e;
};

type BulkJob = ResponseOf<"/mailboxes/oauth/{provider}/bulk/{jobId}", "get">;

/** Google: the workspace's service account (paste its JSON key) and the client id a Workspace admin authorizes. */
function GoogleSetup() {
  const qc = useQueryClient();
  const [key, setKey] = useState("");
  const account = useQuery({
    queryKey: ["oauth-service-account"],
    queryFn: ({ signal }) =>
      data(client.GET("/mailboxes/oauth/{provider}/service-account", { params: { path: on("GOOGLE") }, signal })).catch(noneOn404),
  });
  const save = useMutation({
    mutationFn: () => data(client.PUT("/mailboxes/oauth/{provider}/service-account", { params: { path: on("GOOGLE") }, body: { key } })),
    onSuccess: () => {
      setKey("");
      qc.invalidateQueries({ queryKey: ["oauth-service-account"] });
    },
  });
  return (
    <div className="space-y-2">
      {account.error && <Alert tone="error">{describeError(account.error)}</Alert>}
      {account.data ? (
        <p className="text-sm text-gray-700" data-testid="oauth-bulk-service-account">
          Service account <code>{account.data.clientEmail}</code>. In the Google Admin console, authorize client ID{" "}
          <code>{account.data.clientId ?? "(see the key file)"}</code> for <code>https://mail.google.com/</code> (domain-wide delegation).
        </p>
      ) : (
        <p className="text-sm text-gray-700">No service account yet: paste its JSON key (see docs/oauth.md, Bulk connecting).</p>
      )}
      <Field label={account.data ? "Replace the JSON key" : "Service account JSON key"}>
        <Textarea rows={3} value={key} onChange={(e) => setKey(e.target.value)} spellCheck={false} />
      </Field>
      <Button variant="secondary" disabled={!key.trim() || save.isPending} onClick={() => save.mutate()}>
        Save key
      </Button>
      {save.error && <Alert tone="error">{describeError(save.error)}</Alert>}
    </div>
  );
}

/** Microsoft: the consented tenants, and the admin-consent link to send a tenant's admin. */
function MicrosoftSetup() {
  const tenants = useQuery({
    queryKey: ["oauth-tenants"],
    queryFn: ({ signal }) => data(client.GET("/mailboxes/oauth/{provider}/tenants", { params: { path: on("MICROSOFT") }, signal })),
  });
  const link = useMutation({
    mutationFn: () => data(client.POST("/mailboxes/oauth/{provider}/admin-consent", { params: { path: on("MICROSOFT") }, body: {} })),
  });
  const list = tenants.data?.tenants ?? [];
  return (
    <div className="space-y-2">
      <p className="text-sm text-gray-700" data-testid="oauth-bulk-tenants">
        {list.length ? `Consented tenants: ${list.map((t) => t.tenantId).join(", ")}.` : "No tenant has granted admin consent yet."}
      </p>
      <Button variant="secondary" disabled={link.isPending} onClick={() => link.mutate()}>
        Get an admin-consent link
      </Button>
      {link.data && (
        <p className="text-xs break-all text-gray-700">
          Send this to a Global Administrator of the tenant (valid 15 minutes): <a href={link.data.url}>{link.data.url}</a>
        </p>
      )}
      {link.error && <Alert tone="error">{describeError(link.error)}</Alert>}
    </div>
  );
}

/** A bulk connect's progress, polled until it ends, with the reason for each address that failed. */
function BulkProgress({ provider, jobId }: { provider: ProviderId; jobId: string }) {
  const job = useQuery({
    queryKey: ["oauth-bulk-job", jobId],
    queryFn: ({ signal }): Promise<BulkJob> =>
      data(client.GET("/mailboxes/oauth/{provider}/bulk/{jobId}", { params: { path: { ...on(provider), jobId } }, signal })),
    refetchInterval: (q) => (q.state.data && !["QUEUED", "RUNNING"].includes(q.state.data.status) ? false : 2000),
  });
  const j = job.data;
  if (!j) return job.error ? <Alert tone="error">{describeError(job.error)}</Alert> : null;
  const failed = j.results.filter((r) => r.status === "FAILED");
  return (
    <div className="space-y-2" data-testid="oauth-bulk-progress">
      <Progress value={j.done} max={j.total} label="addresses tried" />
      <p className="text-sm text-gray-700">
        {j.status === "COMPLETED" ? "Done" : j.status.toLowerCase()}: {j.connected} connected, {j.failed} failed.
      </p>
      {j.error && <Alert tone="error">{j.error}</Alert>}
      {failed.length > 0 && (
        <ul className="space-y-1 text-xs text-gray-700">
          {failed.map((r) => (
            <li key={r.email}>
              <code>{r.email}</code>: {r.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Bulk connect (see docs/oauth.md): a Google Workspace domain through its service account, or a Microsoft 365
 * tenant's mailboxes through admin consent. Each address is verified by an XOAUTH2 login before it is saved.
 */
export function OAuthBulkConnect() {
  const [provider, setProvider] = useState<ProviderId>("GOOGLE");
  const [emails, setEmails] = useState("");
  const [senderName, setSenderName] = useState("");
  const [jobId, setJobId] = useState<string>();
  const start = useMutation({
    mutationFn: () => {
      const list = emails.split(/[\s,;]+/).filter(Boolean);
      const body = { emails: list, ...(senderName.trim() ? { senderName: senderName.trim() } : {}) };
      return data(client.POST("/mailboxes/oauth/{provider}/bulk", { params: { path: on(provider) }, body }));
    },
    onSuccess: (r) => setJobId(r.jobId),
  });
  return (
    <div className="space-y-3">
      <div className="flex gap-2">
        {(["GOOGLE", "MICROSOFT"] as const).map((p) => (
          <Button
            key={p}
            variant={p === provider ? "primary" : "secondary"}
            size="sm"
            onClick={() => {
              setProvider(p);
              setJobId(undefined);
            }}
          >
            {p === "GOOGLE" ? "Google Workspace domain" : "Microsoft 365 tenant"}
          </Button>
        ))}
      </div>
      {provider === "GOOGLE" ? <GoogleSetup /> : <MicrosoftSetup />}
      <Field label="Addresses (one per line)">
        <Textarea rows={5} value={emails} onChange={(e) => setEmails(e.target.value)} spellCheck={false} />
      </Field>
      <Field label="Sender name (optional)">
        <Input maxLength={200} value={senderName} onChange={(e) => setSenderName(e.target.value)} />
      </Field>
      <Button disabled={!emails.trim() || start.isPending} onClick={() => start.mutate()}>
        Connect these mailboxes
      </Button>
      {start.error && <Alert tone="error">{describeError(start.error)}</Alert>}
      {jobId && <BulkProgress provider={provider} jobId={jobId} />}
    </div>
  );
}
