"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
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
import type { WebhookView } from "./types";

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

  if (webhook.error || !w) return <NotLoaded back={back} error={webhook.error} />;

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
          <DetailActions w={w} setActive={setActive} onAction={setAction} />
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

function DetailActions({
  w,
  setActive,
  onAction,
}: {
  w: WebhookView;
  setActive: ReturnType<typeof useSetActive>;
  onAction: (a: WebhookAction) => void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button onClick={() => onAction({ kind: "test", webhook: w })}>Send test</Button>
      <Button variant="secondary" disabled={setActive.isPending} onClick={() => setActive.mutate(w)}>
        {w.active ? "Pause" : "Resume"}
      </Button>
      <Button variant="secondary" onClick={() => onAction({ kind: "edit", webhook: w })}>
        Edit
      </Button>
      <Button variant="secondary" onClick={() => onAction({ kind: "rotate", webhook: w })}>
        Rotate secret
      </Button>
      <Button variant="secondary" className="text-red-700" onClick={() => onAction({ kind: "delete", webhook: w })}>
        Delete
      </Button>
    </div>
  );
}

/** The page before its webhook is there: loading, gone, or failed to load. */
function NotLoaded({ back, error }: { back: ReactNode; error: Error | null }) {
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <div className="space-y-4">
      {back}
      {error ? (
        <Alert tone="error">
          {missing ? "This webhook does not exist (it may have been deleted)." : `Could not load the webhook: ${describeError(error)}`}
        </Alert>
      ) : (
        <p className="text-sm text-gray-500">Loading…</p>
      )}
    </div>
  );
}
