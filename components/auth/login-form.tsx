"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";

/** The sign-in errors the server names by code: the account has two-factor sign-in on. */
const TWO_FACTOR_REQUIRED = "TWO_FACTOR_REQUIRED";
const TWO_FACTOR_INVALID = "TWO_FACTOR_INVALID";

/** next-auth's code for "authorize() returned null"; the two-factor codes; anything else is a message we threw. */
export function signInMessage(error: string): string {
  if (error === "CredentialsSignin") return "Wrong email or password";
  if (error === TWO_FACTOR_REQUIRED) return "Enter the code from your authenticator app";
  if (error === TWO_FACTOR_INVALID) return "That code is not valid";
  return error;
}

function asksForCode(error: string | undefined): boolean {
  return error === TWO_FACTOR_REQUIRED || error === TWO_FACTOR_INVALID;
}

export function LoginForm({ next, initialError }: { next: string; initialError?: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  // Shown once the server said the account needs a second factor; the same email and password go again with it.
  const [needsCode, setNeedsCode] = useState(asksForCode(initialError));
  const [error, setError] = useState<string | undefined>(
    initialError && initialError !== TWO_FACTOR_REQUIRED ? signInMessage(initialError) : undefined,
  );
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    // Only when asked: next-auth would send an absent field as the text "undefined".
    const credentials = needsCode && code.trim() ? { email, password, code: code.trim() } : { email, password };
    const res = await signIn("credentials", { ...credentials, redirect: false });
    if (!res || res.error || !res.ok) {
      const err = res?.error ?? undefined;
      if (asksForCode(err)) setNeedsCode(true);
      // Asked for the first time: the field appearing says enough.
      setError(err === TWO_FACTOR_REQUIRED && !needsCode ? undefined : err ? signInMessage(err) : "Sign-in failed; try again");
      if (err === TWO_FACTOR_INVALID) setCode("");
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
      {needsCode && (
        <Field label="Authentication code" hint="The 6-digit code from your authenticator app, or one of your recovery codes.">
          <Input
            name="code"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            required
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </Field>
      )}
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Signing in…" : needsCode ? "Verify and sign in" : "Sign in"}
      </Button>
      <p className="text-center text-sm">
        <Link className="text-indigo-700 hover:underline" href="/forgot-password">
          Forgot password?
        </Link>
      </p>
    </form>
  );
}
