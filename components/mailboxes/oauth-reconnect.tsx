"use client";

import { useMutation } from "@tanstack/react-query";
import { client, data, describeError } from "@/components/api-client";
import { Button } from "@/components/ui/button";
import type { MailboxView } from "@/lib/mailboxes/schemas";

/** Starts a consent at the mailbox's provider (the typed POST …/start) and sends the browser there. */
export function startOAuthConsent(provider: "GOOGLE" | "MICROSOFT", body: { loginHint?: string; senderName?: string }) {
  return data(client.POST("/mailboxes/oauth/{provider}/start", { params: { path: { provider: provider.toLowerCase() } }, body }));
}

/**
 * In the health cell of an OAuth mailbox whose login fails (consent revoked, password reset, account
 * disabled): says that a reconnect is the fix, and "Reconnect" runs the consent again for its address.
 * The callback replaces its tokens (history and warmup kept) and brings the browser back to /mailboxes.
 */
export function OAuthReconnect({ mailbox: m }: { mailbox: MailboxView }) {
  const start = useMutation({
    mutationFn: () => startOAuthConsent(m.provider === "MICROSOFT" ? "MICROSOFT" : "GOOGLE", { loginHint: m.email }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  if (m.authType !== "OAUTH" || (m.healthStatus !== "LOGIN_FAILING" && m.healthStatus !== "READ_FAILING")) return null;
  const name = m.provider === "MICROSOFT" ? "Microsoft" : "Google";
  return (
    <div className="mt-1 space-y-1 text-xs" data-testid="oauth-reconnect">
      <p className="text-gray-700">{name} no longer accepts its sign-in: reconnect it.</p>
      <Button size="sm" variant="secondary" disabled={start.isPending} onClick={() => start.mutate()} aria-label={`Reconnect ${m.email}`}>
        Reconnect
      </Button>
      {start.error && <p className="text-red-700">{describeError(start.error)}</p>}
    </div>
  );
}
