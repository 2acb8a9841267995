"use client";

import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";

/** next-auth's code for "authorize() returned null"; anything else is a message we threw. */
export function signInMessage(error: string): string {
  return error === "CredentialsSignin" ? "Wrong email or password" : error;
}

export function LoginForm({ next, initialError }: { next: string; initialError?: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>(initialError && signInMessage(initialError));
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const res = await signIn("credentials", { email, password, redirect: false });
    if (!res || res.error || !res.ok) {
      setError(res?.error ? signInMessage(res.error) : "Sign-in failed; try again");
      setBusy(false);
      return;
    }
    // A full load, so that the server layout reads the new session cookie.
    window.location.assign(next);
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <h1 className="text-lg font-semibold text-gray-900">Sign in</h1>
      {error && <Alert tone="error">{error}</Alert>}
      <Field label="Email">
        <Input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field label="Password">
        <Input
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
