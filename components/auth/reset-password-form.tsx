"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { ApiError, client, data } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";

/** A new password from a reset link; setting it signs out every session of the account. */
export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const [form, setForm] = useState({ password: "", confirm: "" });
  const [error, setError] = useState<Error>();
  const [state, setState] = useState<"idle" | "busy" | "done">("idle");
  const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (form.password !== form.confirm) {
      setError(new Error("The two passwords differ"));
      return;
    }
    setState("busy");
    setError(undefined);
    try {
      await data(client.POST("/password-reset/{token}", { params: { path: { token } }, body: { password: form.password } }));
      setState("done");
    } catch (err) {
      setError(err as Error);
      setState("idle");
    }
  }

  if (state === "done") {
    return (
      <div className="space-y-3 text-sm text-gray-700">
        <h1 className="text-lg font-semibold text-gray-900">Password changed</h1>
        <p>Every session of {email} was signed out. Sign in with the new password.</p>
        <Link className="text-indigo-700 hover:underline" href="/login">
          Sign in
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-gray-900">Choose a new password</h1>
        <p className="text-sm text-gray-600">For {email}. Every session of the account is signed out afterwards.</p>
      </div>
      {error && <Alert tone="error">{error.message}</Alert>}
      <input type="email" autoComplete="username" value={email} readOnly hidden />
      <Field label="New password" errors={fieldErrors.password} hint="At least 8 characters.">
        <Input
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={form.password}
          onChange={(e) => setForm((f) => ({ ...f, password: e.target.value }))}
        />
      </Field>
      <Field label="Confirm new password">
        <Input
          type="password"
          autoComplete="new-password"
          required
          value={form.confirm}
          onChange={(e) => setForm((f) => ({ ...f, confirm: e.target.value }))}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={state === "busy"}>
        {state === "busy" ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}
