"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { ApiError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/input";
import { Tabs } from "@/components/ui/tabs";
import type { ImportItem } from "@/lib/mailboxes/schemas";
import { client, data, smtpCodeOf } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";
import { OAuthBulkConnect } from "./oauth-bulk";
import { OAuthConnect } from "./oauth-connect";

export type BulkImportResult = ResponseOf<"/mailboxes/bulk-import", "post">;

type Tab = "oauth" | "bulk" | "hosted" | "own";

/** Adds one mailbox: a hosted-webmail address with an app password, or any server by its SMTP/IMAP settings. */
export function ConnectDialog({
  open,
  onClose,
  onConnected,
}: {
  open: boolean;
  onClose: () => void;
  onConnected: (message: string) => void;
}) {
  const [tab, setTab] = useState<Tab>("hosted");
  return (
    <Dialog open={open} onClose={onClose} title="Connect mailbox" wide>
      <Tabs<Tab>
        label="How to connect"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "oauth", label: "Google / Microsoft (sign in)", content: <OAuthConnect /> },
          { id: "bulk", label: "Many at once (Workspace / 365)", content: <OAuthBulkConnect /> },
          { id: "hosted", label: "Hosted webmail (app password)", content: <HostedForm onConnected={onConnected} /> },
          { id: "own", label: "Own SMTP/IMAP server", content: <OwnServerForm onConnected={onConnected} /> },
        ]}
      />
    </Dialog>
  );
}

/** The server's message, and the SMTP reply code when the mail server gave one. */
function Failure({ message, code }: { message: string; code?: number }) {
  return (
    <Alert tone="error">
      <p data-testid="connect-error">{message}</p>
      {code !== undefined && <p className="mt-1 text-xs">SMTP reply code {code}</p>}
    </Alert>
  );
}

function useInvalidateAfterConnect() {
  const queryClient = useQueryClient();
  // A new address may also have created its sending domain.
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ["mailboxes"] }), queryClient.invalidateQueries({ queryKey: ["domains"] })]);
}

function HostedForm({ onConnected }: { onConnected: (message: string) => void }) {
  const refresh = useInvalidateAfterConnect();
  const [form, setForm] = useState({ email: "", appPassword: "", senderName: "" });
  const connect = useMutation({
    mutationFn: () =>
      data(
        client.PUT("/mailboxes/by-email/{email}", {
          params: { path: { email: form.email.trim() } },
          body: { appPassword: form.appPassword, ...(form.senderName.trim() ? { senderName: form.senderName.trim() } : {}) },
        }),
      ),
    onSuccess: async (m) => {
      await refresh();
      onConnected(m.created ? `Connected ${m.email}.` : `Updated the login of ${m.email}.`);
    },
  });
  const fieldErrors = connect.error instanceof ApiError ? connect.error.fieldErrors : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    connect.mutate();
  }

  return (
    <form onSubmit={submit} className="space-y-3">
      <p className="text-sm text-gray-600">
        For Google, Microsoft, Yahoo, Zoho, iCloud and Fastmail addresses (found from the address or its MX records). Create an app password
        in the account&apos;s security settings; the login is tried before anything is saved.
      </p>
      <Field label="Email" errors={fieldErrors.email}>
        <Input
          type="email"
          required
          autoComplete="off"
          value={form.email}
          onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))}
        />
      </Field>
      <Field label="App password" errors={fieldErrors.appPassword} hint="Spaces are ignored, so it can be pasted as shown.">
        <Input
          type="password"
          required
          autoComplete="new-password"
          value={form.appPassword}
          onChange={(e) => setForm((f) => ({ ...f, appPassword: e.target.value }))}
        />
      </Field>
      <Field label="Sender name (optional)" errors={fieldErrors.senderName}>
        <Input maxLength={200} value={form.senderName} onChange={(e) => setForm((f) => ({ ...f, senderName: e.target.value }))} />
      </Field>
      {connect.error && <Failure message={connect.error.message} code={smtpCodeOf(connect.error)} />}
      <div className="flex justify-end">
        <Button type="submit" disabled={connect.isPending}>
          {connect.isPending ? "Checking the login…" : "Connect"}
        </Button>
      </div>
    </form>
  );
}

type Security = "" | "SSL" | "STARTTLS" | "NONE";

const EMPTY_OWN = {
  email: "",
  senderName: "",
  smtpHost: "",
  smtpPort: "587",
  smtpSecurity: "" as Security,
  smtpUsername: "",
  smtpPassword: "",
  imapHost: "",
  imapPort: "993",
  imapSecurity: "" as Security,
  imapUsername: "",
  imapPassword: "",
  dailySendCap: "",
};
type OwnForm = typeof EMPTY_OWN;

/** The import item: blank optional fields are left out so the API's defaults apply. */
function itemOf(f: OwnForm): ImportItem {
  const opt = (v: string) => (v.trim() ? v.trim() : undefined);
  return {
    email: f.email.trim(),
    senderName: opt(f.senderName),
    smtpHost: f.smtpHost.trim(),
    smtpPort: Number(f.smtpPort),
    smtpSecurity: f.smtpSecurity || undefined,
    smtpUsername: opt(f.smtpUsername),
    smtpPassword: f.smtpPassword,
    imapHost: f.imapHost.trim(),
    imapPort: Number(f.imapPort),
    imapSecurity: f.imapSecurity || undefined,
    imapUsername: opt(f.imapUsername),
    imapPassword: f.imapPassword || undefined,
    dailySendCap: f.dailySendCap.trim() ? Number(f.dailySendCap) : undefined,
  };
}

function SecuritySelect({ value, onChange, port }: { value: Security; onChange: (v: Security) => void; port: "smtp" | "imap" }) {
  return (
    // Named explicitly: inside a <label> the chosen option's text would join the select's name.
    <Select aria-label={`${port.toUpperCase()} security`} value={value} onChange={(e) => onChange(e.target.value as Security)}>
      <option value="" title={port === "smtp" ? "SSL on port 465, else STARTTLS" : "STARTTLS on port 143, else SSL"}>
        Automatic (by port)
      </option>
      <option value="SSL">SSL/TLS</option>
      <option value="STARTTLS">STARTTLS</option>
      <option value="NONE">None (plain text)</option>
    </Select>
  );
}

/** Saving one own-server mailbox (through the bulk import, which tries the logins first when asked). */
function useOwnServerSave(form: OwnForm, verify: boolean, onConnected: (message: string) => void) {
  const refresh = useInvalidateAfterConnect();
  const save = useMutation({
    mutationFn: () => data(client.POST("/mailboxes/bulk-import", { body: { mailboxes: [itemOf(form)], verify } })),
    onSuccess: async (r) => {
      // A refused login is not an HTTP error here: the import reports it per mailbox.
      if (r.failed.length > 0) return;
      await refresh();
      const m = r.mailboxes[0];
      onConnected(r.created ? `Connected ${m?.email ?? form.email}.` : `Updated the settings of ${m?.email ?? form.email}.`);
    },
  });
  const failed = save.data?.failed[0];
  // The body's field errors are named after the one item: mailboxes.0.smtpPort → smtpPort.
  const fieldErrors: Record<string, string[]> = {};
  if (save.error instanceof ApiError) {
    for (const [k, v] of Object.entries(save.error.fieldErrors)) fieldErrors[k.replace(/^mailboxes\.0\./, "")] = v;
  }
  return { save, failed, fieldErrors };
}

function OwnServerForm({ onConnected }: { onConnected: (message: string) => void }) {
  const [form, setForm] = useState<OwnForm>(EMPTY_OWN);
  const [verify, setVerify] = useState(true);
  const set = (k: keyof OwnForm) => (v: string) => setForm((f) => ({ ...f, [k]: v }));

  const { save, failed, fieldErrors } = useOwnServerSave(form, verify, onConnected);

  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }

  const text = (
    k: keyof OwnForm,
    label: string,
    props: { type?: string; required?: boolean; placeholder?: string; hint?: ReactNode; min?: number; max?: number } = {},
  ) => (
    <Field label={label} errors={fieldErrors[k]} hint={props.hint}>
      <Input
        type={props.type ?? "text"}
        required={props.required}
        placeholder={props.placeholder}
        min={props.min}
        max={props.max}
        autoComplete={props.type === "password" ? "new-password" : "off"}
        value={form[k]}
        onChange={(e) => set(k)(e.target.value)}
      />
    </Field>
  );

  return (
    <form onSubmit={submit} className="space-y-4">
      <div className="grid grid-cols-2 gap-3">
        {text("email", "Email", { type: "email", required: true })}
        {text("senderName", "Sender name (optional)")}
      </div>
      <fieldset className="grid grid-cols-3 gap-3 rounded-lg border border-gray-200 p-3">
        <legend className="px-1 text-sm font-semibold text-gray-800">Sending (SMTP)</legend>
        {text("smtpHost", "SMTP host", { required: true, placeholder: "smtp.example.com" })}
        {text("smtpPort", "SMTP port", { type: "number", required: true, min: 1, max: 65535 })}
        <Field label="SMTP security" errors={fieldErrors.smtpSecurity}>
          <SecuritySelect port="smtp" value={form.smtpSecurity} onChange={(v) => setForm((f) => ({ ...f, smtpSecurity: v }))} />
        </Field>
        {text("smtpUsername", "SMTP username", { placeholder: "the email address" })}
        {text("smtpPassword", "SMTP password", { type: "password", required: true })}
      </fieldset>
      <fieldset className="grid grid-cols-3 gap-3 rounded-lg border border-gray-200 p-3">
        <legend className="px-1 text-sm font-semibold text-gray-800">Reading replies (IMAP)</legend>
        {text("imapHost", "IMAP host", { required: true, placeholder: "imap.example.com" })}
        {text("imapPort", "IMAP port", { type: "number", required: true, min: 1, max: 65535 })}
        <Field label="IMAP security" errors={fieldErrors.imapSecurity}>
          <SecuritySelect port="imap" value={form.imapSecurity} onChange={(v) => setForm((f) => ({ ...f, imapSecurity: v }))} />
        </Field>
        {text("imapUsername", "IMAP username", { placeholder: "the email address" })}
        {text("imapPassword", "IMAP password", { type: "password", placeholder: "the SMTP password" })}
      </fieldset>
      <div className="grid grid-cols-2 items-end gap-3">
        {text("dailySendCap", "Daily send cap (optional)", { type: "number", min: 0 })}
        <label className="flex items-center gap-2 pb-2 text-sm text-gray-700">
          <input type="checkbox" checked={verify} onChange={(e) => setVerify(e.target.checked)} />
          Try the SMTP and IMAP logins before saving
        </label>
      </div>
      {save.error && <Failure message={save.error.message} code={smtpCodeOf(save.error)} />}
      {failed && <Failure message={failed.error} code={failed.smtpResponseCode} />}
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? (verify ? "Checking the logins…" : "Saving…") : "Connect"}
        </Button>
      </div>
    </form>
  );
}
