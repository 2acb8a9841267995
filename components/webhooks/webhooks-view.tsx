"use client";

import Link from "next/link";
import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Notice } from "@/components/ui/notice";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { TableStatusRows } from "@/components/ui/selectable-table";
import { Switch } from "@/components/ui/switch";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import { useSetActive, WebhookDialogs, type WebhookAction } from "./actions";
import { CreateWebhookDialog } from "./create-dialog";
import { EventChips } from "./event-chips";
import { seconds } from "./labels";
import { useWebhooks } from "./queries";
import type { WebhookView } from "./types";

const COLUMNS = 5;

export function WebhooksView() {
  const webhooks = useWebhooks();
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<WebhookAction>();
  const [notice, setNotice] = useState<string>();
  const setActive = useSetActive(setNotice);
  const rows = webhooks.data ?? [];

  return (
    <div className="space-y-4">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h1 className="text-xl font-semibold text-gray-900">Webhooks</h1>
          <p className="mt-1 max-w-2xl text-sm text-gray-600">
            Signed HTTP POSTs to your own endpoints when something happens: replies, bounces, unsubscribes, mailbox problems. Each request
            carries an <code className="rounded bg-gray-100 px-1">X-Service-Signature</code> to verify with the webhook&apos;s secret;
            failures are retried with backoff and every attempt is in the delivery log for 30 days.
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>New webhook</Button>
      </div>

      {notice && (
        <Notice testId="webhooks-notice" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      )}
      {webhooks.error && <Alert tone="error">Could not load webhooks: {describeError(webhooks.error)}</Alert>}
      {setActive.error && <Alert tone="error">Could not pause or resume: {describeError(setActive.error)}</Alert>}

      <Table aria-label="Webhooks" aria-busy={webhooks.isFetching}>
        <THead>
          <tr>
            <Th>Endpoint</Th>
            <Th>Events</Th>
            <Th>Active</Th>
            <Th>Retries / timeout</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </THead>
        <TBody>
          {rows.map((w) => (
            <WebhookRow key={w.id} w={w} setActive={setActive} onAction={setAction} />
          ))}
          <TableStatusRows columns={COLUMNS} empty={!!webhooks.data && rows.length === 0} loading={webhooks.isPending}>
            No webhooks yet. Add one to get events at your own endpoint.
          </TableStatusRows>
        </TBody>
      </Table>

      <CreateWebhookDialog
        open={creating}
        onClose={(created) => {
          setCreating(false);
          if (created) setNotice(`Created the webhook to ${created.url}.`);
        }}
      />
      <WebhookDialogs action={action} onClose={() => setAction(undefined)} onNotice={setNotice} />
    </div>
  );
}

function WebhookRow({
  w,
  setActive,
  onAction,
}: {
  w: WebhookView;
  setActive: ReturnType<typeof useSetActive>;
  onAction: (a: WebhookAction) => void;
}) {
  return (
    <Tr>
      <Td className="max-w-xs min-w-48">
        <Link href={`/webhooks/${encodeURIComponent(w.id)}`} className="font-mono text-xs break-all text-indigo-700 hover:underline">
          {w.url}
        </Link>
        {(!w.active || w.previousSecretActiveUntil) && (
          <div className="mt-1 flex flex-wrap gap-1">
            {!w.active && <Badge tone="yellow">Paused</Badge>}
            {w.previousSecretActiveUntil && (
              <Badge tone="blue" className="whitespace-nowrap">
                <span title={`The previous secret also signs until ${dateTime(w.previousSecretActiveUntil)}`}>Secret rotating</span>
              </Badge>
            )}
          </div>
        )}
      </Td>
      <Td className="max-w-md min-w-64">
        <EventChips events={w.events} />
      </Td>
      <Td>
        <Switch
          checked={w.active}
          aria-label={`Active: ${w.url}`}
          title={w.active ? "Active — click to pause" : "Paused — click to resume"}
          disabled={setActive.isPending && setActive.variables?.id === w.id}
          onClick={() => setActive.mutate(w)}
        />
      </Td>
      <Td className="whitespace-nowrap text-gray-700 tabular-nums">
        {w.retryAttempts} {w.retryAttempts === 1 ? "attempt" : "attempts"} · {seconds(w.timeoutMs)}
      </Td>
      <Td className="w-56">
        <RowActions w={w} onAction={onAction} />
      </Td>
    </Tr>
  );
}

function RowActions({ w, onAction }: { w: WebhookView; onAction: (a: WebhookAction) => void }) {
  return (
    <div className="flex flex-wrap justify-end">
      <Button variant="ghost" size="sm" aria-label={`Send a test to ${w.url}`} onClick={() => onAction({ kind: "test", webhook: w })}>
        Send test
      </Button>
      <Link
        href={`/webhooks/${encodeURIComponent(w.id)}`}
        aria-label={`Deliveries of ${w.url}`}
        className="inline-flex h-8 items-center rounded-md px-2.5 text-xs font-medium text-gray-700 hover:bg-gray-100"
      >
        Deliveries
      </Link>
      <Button variant="ghost" size="sm" aria-label={`Edit ${w.url}`} onClick={() => onAction({ kind: "edit", webhook: w })}>
        Edit
      </Button>
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Rotate the secret of ${w.url}`}
        onClick={() => onAction({ kind: "rotate", webhook: w })}
      >
        Rotate secret
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-red-700"
        aria-label={`Delete ${w.url}`}
        onClick={() => onAction({ kind: "delete", webhook: w })}
      >
        Delete
      </Button>
    </div>
  );
}
