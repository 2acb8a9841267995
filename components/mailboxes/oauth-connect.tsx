"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { client, data, describeError } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";
import { startOAuthConsent } from "./oauth-reconnect";

type ProviderId = ResponseOf<"/mailboxes/oauth/providers", "get">["providers"][number]["provider"];

const NAMES: Record<ProviderId, string> = { GOOGLE: "Google", MICROSOFT: "Microsoft" };
const WHAT: Record<ProviderId, string> = { GOOGLE: "Google Workspace or Gmail", MICROSOFT: "Microsoft 365 or Outlook.com" };

/**
 * "Connect Google" / "Connect Microsoft": sign in at the provider and allow mail access; the address comes
 * from the sign-in. A provider this installation has not configured says which variables to set.
 */
export function OAuthConnect() {
  const [senderName, setSenderName] = useState("");
  const status = useQuery({
    queryKey: ["oauth-providers"],
    queryFn: ({ signal }) => data(client.GET("/mailboxes/oauth/providers", { signal })).then((r) => r.providers),
  });
  const start = useMutation({
    mutationFn: (provider: ProviderId) => startOAuthConsent(provider, senderName.trim() ? { senderName: senderName.trim() } : {}),
    // The provider's consent page, then back to /mailboxes with the outcome.
    onSuccess: ({ url }) => window.location.assign(url),
  });

  return (
    <div className="space-y-3">
      <p className="text-sm text-gray-600">
        Sign in with the mailbox&apos;s own account and allow mail access. No password is stored: sending and reading use OAuth (XOAUTH2),
        and the address is the one you sign in as. Connecting an address again replaces its sign-in and keeps its history and warmup.
      </p>
      <Field label="Sender name (optional)">
        <Input maxLength={200} value={senderName} onChange={(e) => setSenderName(e.target.value)} />
      </Field>
      {status.error && <Alert tone="error">{describeError(status.error)}</Alert>}
      <div className="grid gap-3 sm:grid-cols-2">
        {(status.data ?? []).map((p) => (
          <div
            key={p.provider}
            className="space-y-2 rounded-md border border-gray-200 p-3"
            data-testid={`oauth-${p.provider.toLowerCase()}`}
          >
            <Button disabled={!p.configured || start.isPending} onClick={() => start.mutate(p.provider)}>
              Connect {NAMES[p.provider]}
            </Button>
            <p className="text-xs text-gray-500">{WHAT[p.provider]}</p>
            {!p.configured && (
              <p className="text-xs text-gray-700" data-testid={`oauth-${p.provider.toLowerCase()}-missing`}>
                Not configured: set {p.missing.join(" and ")} on the server, with <code className="break-all">{p.redirectUri}</code> as the
                app&apos;s redirect URI (see docs/oauth.md).
              </p>
            )}
          </div>
        ))}
      </div>
      {start.error && (
        <Alert tone="error">
          <p data-testid="oauth-start-error">{describeError(start.error)}</p>
        </Alert>
      )}
    </div>
  );
}

/** What the OAuth callback reported (`?oauth=connected|error`), shown above the mailbox list until dismissed. */
export function OAuthResultNotice() {
  const params = useSearchParams();
  const router = useRouter();
  const path = usePathname();
  const outcome = params.get("oauth");
  if (!outcome) return null;
  const dismiss = () => router.replace(path);
  if (outcome === "error") {
    return (
      <Alert tone="error" className="mb-4 flex justify-between gap-2">
        <span data-testid="oauth-result">Connecting the mailbox failed: {params.get("message") ?? "unknown error"}</span>
        <button type="button" onClick={dismiss} aria-label="Dismiss">
          ✕
        </button>
      </Alert>
    );
  }
  const email = params.get("email") ?? "the mailbox";
  return (
    <div className="mb-4">
      <Notice onDismiss={dismiss} testId="oauth-result">
        {params.get("created") === "1" ? `Connected ${email}.` : `Reconnected ${email}: its sign-in was replaced.`}
      </Notice>
    </div>
  );
}
