"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Pager } from "@/components/ui/pager";
import { TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import { usePaging } from "@/components/ui/use-paging";
import { cn } from "@/components/ui/cn";
import { inboxShare, PlacementStatus } from "./placement-grid";
import { usePlacementTests } from "./placement-queries";

const COLUMNS = 6;

/** Past and running tests, newest first; choosing one shows its grid above. */
export function PlacementHistory({ selected, onSelect }: { selected?: string; onSelect: (id: string) => void }) {
  const paging = usePaging(10);
  const list = usePlacementTests(paging.page, paging.limit);
  const tests = list.data?.tests ?? [];
  return (
    <section className="space-y-2" aria-label="Placement test history">
      <h3 className="text-sm font-semibold text-gray-900">History</h3>
      {list.error && <Alert tone="error">Could not load placement tests: {describeError(list.error)}</Alert>}
      <Table aria-label="Placement tests">
        <THead>
          <tr>
            <Th>Started</Th>
            <Th>Mailbox</Th>
            <Th>Status</Th>
            <Th>Inbox</Th>
            <Th>Spam</Th>
            <Th>Missing</Th>
          </tr>
        </THead>
        <TBody>
          {tests.map((t) => (
            <Tr key={t.id} className={cn(t.id === selected && "bg-indigo-50/60")} aria-current={t.id === selected ? "true" : undefined}>
              <Td>
                <button type="button" className="text-left text-indigo-700 hover:underline" onClick={() => onSelect(t.id)}>
                  {dateTime(t.createdAt)}
                </button>
              </Td>
              <Td>{t.mailboxEmail}</Td>
              <Td>
                <PlacementStatus status={t.status} />
              </Td>
              <Td>{inboxShare(t)}</Td>
              <Td>{t.spamCount}</Td>
              <Td>{t.missingCount}</Td>
            </Tr>
          ))}
          <TableStatusRows columns={COLUMNS} empty={!!list.data && tests.length === 0} loading={list.isPending}>
            No placement tests yet.
          </TableStatusRows>
        </TBody>
      </Table>
      {(list.data?.total ?? 0) > paging.limit && (
        <Pager {...paging} total={list.data?.total ?? 0} shown={tests.length} sizes={[10, 25, 50]} />
      )}
    </section>
  );
}
