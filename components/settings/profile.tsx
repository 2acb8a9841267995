"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent, type ReactNode } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { useMember } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { SecretBox } from "@/components/ui/secret-box";
import type { ResponseOf } from "@/lib/client";
import { SettingsNav } from "./settings-nav";

type EmailChange = ResponseOf<"/account/email", "post">;

const fieldsOf = (e: unknown) => (e instanceof ApiError ? e.fieldErrors : {});
/** The error as a banner unless it is about one of the form's fields (shown under that field). */
const bannerOf = (e: unknown, fields: string[]) =>
  e && !fields.some((f) => fieldsOf(e)[f]) ? <Alert tone="error">{describeError(e)}</Alert> : null;

function Card({ title, children, onSubmit }: { title: string; children: ReactNode; onSubmit: (e: FormEvent) => void }) {
  return (
    <form onSubmit={onSubmit} className="max-w-xl space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 className="text-sm font-semibold text-gray-900">{title}</h2>
      {children}
    </form>
  );
}

function NameForm() {
  const member = useMember();
  const router = useRouter();
  const [name, setName] = useState(member?.name ?? "");
  const save = useMutation({
    mutationFn: () => data(client.PATCH("/account/profile", { body: { name: name.trim() || null } })),
    onSuccess: () => router.refresh(),
  });
  return (
    <Card
      title="Name"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Field label="Your name" errors={fieldsOf(save.error).name} hint="Shown to your team (conversation assignees, the audit log).">
        <Input autoComplete="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      {bannerOf(save.error, ["name"])}
      {save.isSuccess && <Alert tone="success">Saved.</Alert>}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save"}
      </Button>
    </Card>
  );
}

function EmailForm() {
  const member = useMember();
  const [form, setForm] = useState({ email: "", currentPassword: "" });
  const [done, setDone] = useState<EmailChange>();
  const change = useMutation({
    mutationFn: () => data(client.POST("/account/email", { body: { email: form.email.trim(), currentPassword: form.currentPassword } })),
    onSuccess: (r) => {
      setDone(r);
      setForm({ email: "", currentPassword: "" });
    },
  });
  const errors = fieldsOf(change.error);
  return (
    <Card
      title="Email address"
      onSubmit={(e) => {
        e.preventDefault();
        setDone(undefined);
        change.mutate();
      }}
    >
      <p className="text-sm text-gray-600">
        You sign in with <span className="font-medium text-gray-900">{member?.email}</span>. A new address takes effect once its
        confirmation link is opened.
      </p>
      <Field label="New email" errors={errors.email}>
        <Input type="email" required value={form.email} onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))} />
      </Field>
      <Field label="Current password" errors={errors.currentPassword}>
        <Input
          type="password"
          autoComplete="current-password"
          required
          value={form.currentPassword}
          onChange={(e) => setForm((f) => ({ ...f, currentPassword: e.target.value }))}
        />
      </Field>
      {bannerOf(change.error, ["email", "currentPassword"])}
      {done?.url && (
        <SecretBox
          label="Confirmation link"
          value={done.url}
          warning={`No mail server is set up, so here is the confirmation link for ${done.newEmail}: open it to switch (shown once, valid 24 hours).`}
        />
      )}
      {done && !done.url && (
        <Alert tone="success">Confirmation sent to {done.newEmail}. Open the link in it (valid 24 hours) to switch.</Alert>
      )}
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? "Sending…" : "Change email"}
      </Button>
    </Card>
  );
}

function PasswordForm() {
  const [form, setForm] = useState({ currentPassword: "", newPassword: "", confirm: "" });
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: () =>
      data(client.POST("/account/password", { body: { currentPassword: form.currentPassword, newPassword: form.newPassword } })),
    onSuccess: () => setForm({ currentPassword: "", newPassword: "", confirm: "" }),
  });
  const errors = fieldsOf(change.error);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  function submit(e: FormEvent) {
    e.preventDefault();
    const differs = form.newPassword !== form.confirm;
    setMismatch(differs);
    if (!differs) change.mutate();
  }
  return (
    <Card title="Password" onSubmit={submit}>
      <Field label="Current password" errors={errors.currentPassword}>
        <Input type="password" autoComplete="current-password" required value={form.currentPassword} onChange={set("currentPassword")} />
      </Field>
      <Field label="New password" errors={errors.newPassword} hint="At least 8 characters.">
        <Input type="password" autoComplete="new-password" required minLength={8} value={form.newPassword} onChange={set("newPassword")} />
      </Field>
      <Field label="Confirm new password" errors={mismatch ? ["does not match the new password"] : undefined}>
        <Input type="password" autoComplete="new-password" required value={form.confirm} onChange={set("confirm")} />
      </Field>
      {bannerOf(change.error, ["currentPassword", "newPassword"])}
      {change.data && (
        <Alert tone="success">
          Password changed.{" "}
          {change.data.otherSessionsEnded > 0
            ? `Your ${change.data.otherSessionsEnded} other session(s) were signed out; this one stays signed in.`
            : "You had no other sessions to sign out."}
        </Alert>
      )}
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? "Changing…" : "Change password"}
      </Button>
    </Card>
  );
}

/** Settings → Profile: the signed-in user's name, email address and password. */
export function Profile() {
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">Profile</h1>
        <div className="my-3">
          <SettingsNav active="profile" />
        </div>
      </div>
      <NameForm />
      <EmailForm />
      <PasswordForm />
    </div>
  );
}
