"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import { usePaging } from "@/components/ui/use-paging";
import { DELIVERY_STATUS } from "./labels";
import { refreshWebhooks, useDeliveries, type DeliveryFilters } from "./queries";
import type { DeliveryStatus, DeliveryView, WebhookView } from "./types";

const PAGE_SIZES = [25, 50, 100];
const COLUMNS = 8;
const ALL_STATUSES: Omit<DeliveryFilters, "page" | "limit"> = { status: "" };

/** Sending a delivery again; the list and the log's rows share it. */
function useResend(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (d: DeliveryView) =>
      data(client.POST("/webhooks/{id}/deliveries/{deliveryId}/resend", { params: { path: { id: webhookId, deliveryId: d.id } } })),
    onSettled: () => refreshWebhooks(queryClient),
  });
}

type Resend = ReturnType<typeof useResend>;

function StatusBadge({ status }: { status: string }) {
  const s = DELIVERY_STATUS[status as DeliveryStatus] ?? { label: status, tone: "gray" as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-gray-500">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-gray-800">{children}</dd>
    </div>
  );
}

/** What the log keeps of one delivery: every field of the API's row. */
function DeliveryDetails({ d, webhook }: { d: DeliveryView; webhook: WebhookView }) {
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 md:grid-cols-4">
      <Detail label="Event id">
        <span className="font-mono text-xs">{d.eventId}</span>
      </Detail>
      <Detail label="Delivery id">
        <span className="font-mono text-xs">{d.id}</span>
      </Detail>
      <Detail label="Attempts">
        {d.attempts}
        {d.isTest ? " (a test is not retried)" : ` of ${webhook.retryAttempts}`}
      </Detail>
      <Detail label="Last status code">{d.lastStatusCode ?? "No HTTP answer"}</Detail>
      <Detail label="Last attempt">{dateTime(d.lastAttemptAt)}</Detail>
      <Detail label="Next attempt">
        {d.status === "PENDING" ? (d.nextAttemptAt ? dateTime(d.nextAttemptAt) : "Now") : "None (finished)"}
      </Detail>
      <Detail label="Created">{dateTime(d.createdAt)}</Detail>
      <Detail label="Last error">{d.lastError ? <span className="text-red-700">{d.lastError}</span> : "—"}</Detail>
      <div className="col-span-2 md:col-span-4">
        <dt className="text-xs font-medium text-gray-500">Last response (first 1 KB)</dt>
        <dd className="mt-0.5">
          {d.lastResponse ? (
            <pre className="max-h-48 overflow-auto rounded-md border border-gray-200 bg-gray-50 p-2 font-mono text-xs whitespace-pre-wrap break-all text-gray-800">
              {d.lastResponse}
            </pre>
          ) : (
            <span className="text-sm text-gray-600">—</span>
          )}
        </dd>
      </div>
    </dl>
  );
}

/**
 * GET /webhooks/<id>/deliveries: newest first, paged, filtered by status. A row opens to every detail
 * of its last attempt; a delivered or failed one can be sent again (same body, same event id).
 */
export function DeliveryLog({ webhook }: { webhook: WebhookView }) {
  const statusId = useId();
  const paging = usePaging(25, ALL_STATUSES);
  const filters = paging.query;
  const [open, setOpen] = useState<Set<string>>(new Set());
  const deliveries = useDeliveries(webhook.id, filters);
  const rows = deliveries.data?.deliveries ?? [];
  const total = deliveries.data?.total ?? 0;

  const resend = useResend(webhook.id);

  function toggle(id: string) {
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  }

  return (
    <section aria-labelledby="delivery-log-heading" className="space-y-3">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 id="delivery-log-heading" className="text-base font-semibold text-gray-900">
            Delivery log
          </h2>
          <p className="text-sm text-gray-600">Every delivery of the last 30 days, newest first.</p>
        </div>
        <LogFilter statusId={statusId} status={filters.status} onStatus={(status) => paging.filter({ status })} deliveries={deliveries} />
      </div>

      <ResendResult resend={resend} />
      {deliveries.error && <Alert tone="error">Could not load deliveries: {describeError(deliveries.error)}</Alert>}

      <Table aria-label="Deliveries" aria-busy={deliveries.isFetching}>
        <THead>
          <tr>
            <Th className="w-8">
              <span className="sr-only">Details</span>
            </Th>
            <Th>Event</Th>
            <Th>Status</Th>
            <Th>Attempts</Th>
            <Th>Last status code</Th>
            <Th>Last attempt</Th>
            <Th>Created</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </THead>
        <TBody>
          {rows.map((d) => (
            <DeliveryRow key={d.id} d={d} webhook={webhook} expanded={open.has(d.id)} onToggle={() => toggle(d.id)} resend={resend} />
          ))}
          <TableStatusRows columns={COLUMNS} empty={!!deliveries.data && rows.length === 0} loading={deliveries.isPending}>
            {filters.status ? "No deliveries with this status." : "No deliveries yet. Send a test to see one here."}
          </TableStatusRows>
        </TBody>
      </Table>

      <Pager {...paging} total={total} shown={rows.length} sizes={PAGE_SIZES} />
    </section>
  );
}

function DeliveryRow({
  d,
  webhook,
  expanded,
  onToggle,
  resend,
}: {
  d: DeliveryView;
  webhook: WebhookView;
  expanded: boolean;
  onToggle: () => void;
  resend: Resend;
}) {
  const canResend = d.status === "DELIVERED" || d.status === "FAILED";
  return (
    <>
      <Tr data-testid="delivery-row">
        <Td>
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={`delivery-${d.id}`}
            aria-label={`Details of ${d.event} ${d.eventId}`}
            onClick={onToggle}
            className="rounded px-1 text-gray-600 hover:bg-gray-100"
          >
            {expanded ? "▾" : "▸"}
          </button>
        </Td>
        <Td>
          <span className="font-mono text-xs">{d.event}</span>
          {d.isTest && (
            <Badge tone="gray" className="ml-1.5">
              test
            </Badge>
          )}
        </Td>
        <Td>
          <StatusBadge status={d.status} />
        </Td>
        <Td className="tabular-nums">{d.attempts}</Td>
        <Td className="tabular-nums">{d.lastStatusCode ?? "—"}</Td>
        <Td className="whitespace-nowrap text-gray-600">{dateTime(d.lastAttemptAt)}</Td>
        <Td className="whitespace-nowrap text-gray-600">{dateTime(d.createdAt)}</Td>
        <Td className="text-right">
          {canResend && (
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Resend ${d.event} ${d.eventId}`}
              disabled={resend.isPending && resend.variables?.id === d.id}
              onClick={() => resend.mutate(d)}
            >
              {resend.isPending && resend.variables?.id === d.id ? "Resending…" : "Resend"}
            </Button>
          )}
        </Td>
      </Tr>
      {expanded && (
        <tr id={`delivery-${d.id}`} className="bg-gray-50/60">
          <td colSpan={COLUMNS} className="px-4 py-3">
            <DeliveryDetails d={d} webhook={webhook} />
          </td>
        </tr>
      )}
    </>
  );
}

/** What the last resend did, or why it could not. */
function ResendResult({ resend }: { resend: Resend }) {
  const r = resend.data;
  return (
    <>
      {r && (
        <Alert tone={r.delivered ? "success" : "error"} className="flex justify-between gap-2">
          <span data-testid="resend-result">
            Resent {r.event} ({r.eventId}):{" "}
            {r.delivered
              ? `delivered${r.lastStatusCode !== null ? `, HTTP ${r.lastStatusCode}` : ""}.`
              : `not delivered — ${r.lastError ?? "no answer"}.${r.status === "PENDING" && r.nextAttemptAt ? ` Retried at ${dateTime(r.nextAttemptAt)}.` : ""}`}
          </span>
          <button type="button" onClick={() => resend.reset()} aria-label="Dismiss">
            ✕
          </button>
        </Alert>
      )}
      {resend.error && (
        <Alert tone="error" className="flex justify-between gap-2">
          <span>Could not resend: {describeError(resend.error)}</span>
          <button type="button" onClick={() => resend.reset()} aria-label="Dismiss">
            ✕
          </button>
        </Alert>
      )}
    </>
  );
}

function LogFilter({
  statusId,
  status,
  onStatus,
  deliveries,
}: {
  statusId: string;
  status: DeliveryFilters["status"];
  onStatus: (s: DeliveryFilters["status"]) => void;
  deliveries: ReturnType<typeof useDeliveries>;
}) {
  return (
    <div className="flex items-end gap-2">
      <div className="space-y-1">
        {/* htmlFor rather than wrapping: a wrapping label would add the selected option to the name. */}
        <label htmlFor={statusId} className="block text-xs font-medium text-gray-600">
          Status
        </label>
        <Select id={statusId} className="w-40" value={status} onChange={(e) => onStatus(e.target.value as DeliveryFilters["status"])}>
          <option value="">All statuses</option>
          <option value="PENDING">Pending</option>
          <option value="DELIVERED">Delivered</option>
          <option value="FAILED">Failed</option>
        </Select>
      </div>
      <Button variant="secondary" disabled={deliveries.isFetching} onClick={() => deliveries.refetch()}>
        Refresh
      </Button>
    </div>
  );
}
