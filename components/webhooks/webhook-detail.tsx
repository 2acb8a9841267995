"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Notice } from "@/components/ui/notice";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { dateTime } from "@/components/ui/time";
import { useSetActive, WebhookDialogs, type WebhookAction } from "./actions";
import { DeliveryLog } from "./delivery-log";
import { EventChips } from "./event-chips";
import { seconds } from "./labels";
import { useWebhook } from "./queries";

/** /webhooks/<id>: one webhook, its actions and its delivery log. */
export function WebhookDetail({ id }: { id: string }) {
  const router = useRouter();
  const webhook = useWebhook(id);
  const [action, setAction] = useState<WebhookAction>();
  const [notice, setNotice] = useState<string>();
  const setActive = useSetActive(setNotice);
  const w = webhook.data;

  const back = (
    <Link href="/webhooks" className="text-sm text-indigo-700 hover:underline">
      ← Webhooks
    </Link>
  );

  if (webhook.error) {
    const missing = webhook.error instanceof ApiError && webhook.error.status === 404;
    return (
      <div className="space-y-4">
        {back}
        <Alert tone="error">
          {missing
            ? "This webhook does not exist (it may have been deleted)."
            : `Could not load the webhook: ${describeError(webhook.error)}`}
        </Alert>
      </div>
    );
  }
  if (!w) {
    return (
      <div className="space-y-4">
        {back}
        <p className="text-sm text-gray-500">Loading…</p>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <div className="space-y-3">
        {back}
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 className="text-xl font-semibold text-gray-900">Webhook</h1>
            <p className="mt-1 font-mono text-sm break-all text-gray-800" data-testid="webhook-url">
              {w.url}
            </p>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <Badge tone={w.active ? "green" : "yellow"}>{w.active ? "Active" : "Paused"}</Badge>
              <span className="text-sm text-gray-600">
                {w.retryAttempts} {w.retryAttempts === 1 ? "attempt" : "attempts"} · {seconds(w.timeoutMs)} timeout · created{" "}
                {dateTime(w.createdAt)}
              </span>
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setAction({ kind: "test", webhook: w })}>Send test</Button>
            <Button variant="secondary" disabled={setActive.isPending} onClick={() => setActive.mutate(w)}>
              {w.active ? "Pause" : "Resume"}
            </Button>
            <Button variant="secondary" onClick={() => setAction({ kind: "edit", webhook: w })}>
              Edit
            </Button>
            <Button variant="secondary" onClick={() => setAction({ kind: "rotate", webhook: w })}>
              Rotate secret
            </Button>
            <Button variant="secondary" className="text-red-700" onClick={() => setAction({ kind: "delete", webhook: w })}>
              Delete
            </Button>
          </div>
        </div>
        <EventChips events={w.events} />
        {w.previousSecretActiveUntil && (
          <Alert tone="info">
            Secret rotation in progress: the previous secret also signs every request until {dateTime(w.previousSecretActiveUntil)}.
          </Alert>
        )}
      </div>

      {notice && (
        <Notice testId="webhooks-notice" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      )}
      {setActive.error && <Alert tone="error">Could not pause or resume: {describeError(setActive.error)}</Alert>}

      <DeliveryLog webhook={w} />

      <WebhookDialogs
        action={action}
        onClose={() => setAction(undefined)}
        onNotice={setNotice}
        onDeleted={() => router.push("/webhooks")}
      />
    </div>
  );
}
