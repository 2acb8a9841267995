"use client";

import Link from "next/link";
import { useState } from "react";
import { client, data } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** Switches the account's email address to the confirmed one. */
export function ConfirmEmailButton({ token, from, to }: { token: string; from: string; to: string }) {
  const [state, setState] = useState<"idle" | "busy" | "done">("idle");
  const [error, setError] = useState<string>();

  async function confirm() {
    setState("busy");
    setError(undefined);
    try {
      await data(client.POST("/account/email/confirm/{token}", { params: { path: { token } } }));
      setState("done");
    } catch (err) {
      setError((err as Error).message);
      setState("idle");
    }
  }

  if (state === "done") {
    return (
      <div className="space-y-3 text-sm text-gray-700">
        <h1 className="text-lg font-semibold text-gray-900">Email changed</h1>
        <p>You sign in with {to} from now on.</p>
        <Link className="text-indigo-700 hover:underline" href="/leads">
          Open the dashboard
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-gray-900">Confirm your new email</h1>
        <p className="text-sm text-gray-600">
          Change the account&apos;s email from <span className="font-medium text-gray-900">{from}</span> to{" "}
          <span className="font-medium text-gray-900">{to}</span>?
        </p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      <Button className="w-full" disabled={state === "busy"} onClick={confirm}>
        {state === "busy" ? "Confirming…" : `Use ${to}`}
      </Button>
    </div>
  );
}
