"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { client, data } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";

/** The address to send a reset link to. The answer is the same whether or not an account has it. */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const [state, setState] = useState<"idle" | "busy" | "sent" | "no-mailer">("idle");
  const [error, setError] = useState<string>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setState("busy");
    setError(undefined);
    try {
      const r = await data(client.POST("/password-reset", { body: { email: email.trim() } }));
      setState(r.sent ? "sent" : "no-mailer");
    } catch (err) {
      setError((err as Error).message);
      setState("idle");
    }
  }

  if (state === "sent" || state === "no-mailer") {
    return (
      <div className="space-y-3 text-sm text-gray-700">
        <h1 className="text-lg font-semibold text-gray-900">Check your email</h1>
        {state === "sent" ? (
          <p>If an account uses {email}, a link to choose a new password is on its way. It works once, for one hour.</p>
        ) : (
          <p>
            This instance cannot send email. Ask whoever runs it to run{" "}
            <code className="rounded bg-gray-100 px-1">npx outreach reset-password --email {email || "you@example.com"}</code>.
          </p>
        )}
        <Link className="text-indigo-700 hover:underline" href="/login">
          Back to sign in
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-gray-900">Forgot your password?</h1>
        <p className="text-sm text-gray-600">We will email you a link to choose a new one.</p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      <Field label="Email">
        <Input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Button type="submit" className="w-full" disabled={state === "busy"}>
        {state === "busy" ? "Sending…" : "Send reset link"}
      </Button>
      <p className="text-center text-sm">
        <Link className="text-indigo-700 hover:underline" href="/login">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
