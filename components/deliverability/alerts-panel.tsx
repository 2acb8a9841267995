"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { ago, dateTime } from "@/components/ui/time";
import { usePaging } from "@/components/ui/use-paging";
import { ALERT_KIND, SEVERITY } from "./labels";
import { type AlertView, useAcknowledge, useOpenAlerts } from "./queries";

function AlertRow({ alert: a }: { alert: AlertView }) {
  const ack = useAcknowledge();
  const s = SEVERITY[a.severity];
  return (
    <Tr data-testid="alert-row" data-alert-id={a.id}>
      <Td>
        <Badge tone={s.tone}>{s.label}</Badge>
      </Td>
      <Td className="whitespace-nowrap font-medium">{ALERT_KIND[a.kind]}</Td>
      <Td className="max-w-xl break-words">{a.message}</Td>
      <Td className="whitespace-nowrap" title={dateTime(a.createdAt)}>
        {ago(a.createdAt)}
      </Td>
      <Td className="whitespace-nowrap">
        {a.acknowledgedAt ? (
          <span className="text-xs text-gray-600" title={dateTime(a.acknowledgedAt)}>
            Acknowledged {ago(a.acknowledgedAt)}
          </span>
        ) : (
          <Button size="sm" variant="secondary" disabled={ack.isPending} onClick={() => ack.mutate(a.id)}>
            {ack.isPending ? "Acknowledging…" : "Acknowledge"}
          </Button>
        )}
        {ack.error && <p className="mt-1 text-xs text-red-600">{describeError(ack.error)}</p>}
      </Td>
    </Tr>
  );
}

/**
 * Open alerts: raised by the jobs that see a problem and closed by them when it ends. Acknowledging
 * says someone has seen it; the alert stays in this list until its condition is gone.
 */
export function AlertsPanel() {
  const paging = usePaging(25);
  const alerts = useOpenAlerts(paging.page, paging.limit);
  const rows = alerts.data?.alerts ?? [];
  return (
    <section className="space-y-3" aria-labelledby="alerts-heading">
      <div>
        <h2 id="alerts-heading" className="text-base font-semibold text-gray-900">
          Open alerts
        </h2>
        <p className="text-sm text-gray-600">Each closes by itself when the problem is gone.</p>
      </div>
      {alerts.error && <Alert tone="error">Could not load alerts: {describeError(alerts.error)}</Alert>}
      <Table aria-label="Open alerts" aria-busy={alerts.isFetching}>
        <THead>
          <tr>
            <Th>Severity</Th>
            <Th>Kind</Th>
            <Th>What</Th>
            <Th>Since</Th>
            <Th>
              <span className="sr-only">Acknowledge</span>
            </Th>
          </tr>
        </THead>
        <TBody>
          {rows.map((a) => (
            <AlertRow key={a.id} alert={a} />
          ))}
          {alerts.data && rows.length === 0 && (
            <tr>
              <Td colSpan={5} className="py-6 text-center text-gray-500">
                No open alerts.
              </Td>
            </tr>
          )}
        </TBody>
      </Table>
      {(alerts.data?.total ?? 0) > paging.limit && (
        <Pager {...paging} total={alerts.data?.total ?? 0} shown={rows.length} sizes={[25, 50, 100, 200]} />
      )}
    </section>
  );
}
