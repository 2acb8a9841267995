"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { ApiError, client, data } from "@/components/api-client";
import { setWorkspaceCookie } from "@/components/shell/workspace-cookie";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";

type Mode = "signed-in" | "new";

/**
 * Accepts an invitation: the signed-in invitee with one click; otherwise with a new account's name
 * and password (an existing account signs in first). Then a session (next-auth's sign-in) and the
 * dashboard, opened in the workspace joined.
 */
export function AcceptInvitation({ token, email, workspaceId, mode }: { token: string; email: string; workspaceId: string; mode: Mode }) {
  const [form, setForm] = useState({ name: "", password: "" });
  const [error, setError] = useState<Error>();
  const [joinedButNotSignedIn, setJoinedButNotSignedIn] = useState(false);
  const [busy, setBusy] = useState(false);
  const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const body = mode === "signed-in" ? {} : { name: form.name.trim() || undefined, password: form.password };
    const failed = await data(client.POST("/invitations/{token}/accept", { params: { path: { token } }, body })).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    setError(failed);
    if (failed) return setBusy(false);
    setWorkspaceCookie(workspaceId);
    if (mode !== "signed-in") {
      const res = await signIn("credentials", { email, password: form.password, redirect: false });
      if (!res?.ok || res.error) {
        // Joined; the sign-in needs more (a second factor, for one): the sign-in page asks for it.
        setJoinedButNotSignedIn(true);
        setBusy(false);
        return;
      }
    }
    // `/` opens the dashboard page of the role joined (Campaigns for a client seat).
    window.location.assign("/");
  }

  if (joinedButNotSignedIn) {
    return (
      <Alert tone="success">
        You joined the workspace.{" "}
        <Link className="font-medium underline" href="/login?callbackUrl=%2F">
          Sign in
        </Link>{" "}
        to open it.
      </Alert>
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      {error && <Alert tone="error">{error.message}</Alert>}
      {mode === "new" && (
        <>
          <p className="text-sm text-gray-600">Create your account to accept.</p>
          <Field label="Your name (optional)" errors={fieldErrors.name}>
            <Input
              name="name"
              autoComplete="name"
              maxLength={100}
              value={form.name}
              onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
            />
          </Field>
        </>
      )}
      {mode !== "signed-in" && (
        <Field label="Choose a password" errors={fieldErrors.password} hint="At least 8 characters.">
          <Input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={form.password}
            onChange={(e) => setForm((f) => ({ ...f, password: e.target.value }))}
          />
        </Field>
      )}
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Accepting…" : mode === "new" ? "Create account and accept" : "Accept invitation"}
      </Button>
    </form>
  );
}
