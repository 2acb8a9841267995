"use client";

import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { ApiError, apiFetch } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { signInMessage } from "./login-form";

/** The first sign-up: the owner account and the first workspace, authorised by the printed token. */
export function SetupForm({ token }: { token: string }) {
  const [form, setForm] = useState({ name: "", email: "", password: "", workspaceName: "" });
  const [error, setError] = useState<ApiError | Error>();
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      // POST /api/setup is the first-run route outside /api/v1 (no workspace, no key yet), so the typed
      // client, generated from the /api/v1 document, does not describe it: the small JSON wrapper stays.
      await apiFetch("/api/setup", { method: "POST", body: { ...form, name: form.name || undefined, token } });
    } catch (err) {
      setError(err as Error);
      setBusy(false);
      return;
    }
    const res = await signIn("credentials", { email: form.email, password: form.password, redirect: false });
    if (!res?.ok || res.error) {
      // The account exists now; only the automatic sign-in failed, so send them to the login form.
      setError(
        new Error(
          `Your account was created, but signing in failed: ${signInMessage(res?.error ?? "unknown error")}. Sign in on the login page.`,
        ),
      );
      setBusy(false);
      return;
    }
    window.location.assign("/leads");
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-gray-900">Set up Outreach</h1>
        <p className="text-sm text-gray-600">Create the owner account and your first workspace.</p>
      </div>
      {error && <Alert tone="error">{error.message}</Alert>}
      <Field label="Workspace name" errors={fieldErrors.workspaceName}>
        <Input name="workspaceName" required value={form.workspaceName} onChange={set("workspaceName")} placeholder="Acme outbound" />
      </Field>
      <Field label="Your name (optional)" errors={fieldErrors.name}>
        <Input name="name" autoComplete="name" value={form.name} onChange={set("name")} />
      </Field>
      <Field label="Email" errors={fieldErrors.email}>
        <Input type="email" name="email" autoComplete="username" required value={form.email} onChange={set("email")} />
      </Field>
      <Field label="Password" errors={fieldErrors.password} hint="At least 8 characters.">
        <Input
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={form.password}
          onChange={set("password")}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Creating…" : "Create account and workspace"}
      </Button>
    </form>
  );
}
