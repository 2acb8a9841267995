"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Select } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import { type BounceKind, type PeriodPick, useBounces } from "./queries";

const KIND_TONE = { hard: "red", soft: "yellow", failed: "gray" } as const;

/** The period's bounces newest first, with the receiving server's code and message. */
export function BounceLog({ period }: { period: PeriodPick }) {
  const [kind, setKind] = useState<BounceKind | "">("");
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(50);
  const q = useBounces(period, kind, page, limit);
  return (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-sm text-gray-700">
        Show
        <Select
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as BounceKind | "");
            setPage(1);
          }}
          className="w-auto"
          aria-label="Bounce kind"
        >
          <option value="">Hard and soft bounces</option>
          <option value="hard">Hard bounces</option>
          <option value="soft">Soft bounces</option>
          <option value="failed">Refused at send time (retried)</option>
        </Select>
      </label>
      {q.error && <Alert tone="error">Could not load bounces: {describeError(q.error)}</Alert>}
      {!q.data && !q.error && <p className="text-sm text-gray-500">Loading…</p>}
      {q.data && (
        <>
          <Table data-testid="bounce-log">
            <THead>
              <Tr>
                <Th>When</Th>
                <Th>Kind</Th>
                <Th>Lead</Th>
                <Th>Mailbox</Th>
                <Th>Campaign</Th>
                <Th>Code</Th>
                <Th>Reason</Th>
              </Tr>
            </THead>
            <TBody>
              {q.data.bounces.length === 0 && (
                <Tr>
                  <Td colSpan={7} className="text-center text-gray-500">
                    No bounces in this period.
                  </Td>
                </Tr>
              )}
              {q.data.bounces.map((b) => (
                <BounceRow key={b.id} b={b} />
              ))}
            </TBody>
          </Table>
          <Pager
            page={page}
            limit={limit}
            total={q.data.total}
            shown={q.data.bounces.length}
            sizes={[25, 50, 100, 200]}
            onPage={setPage}
            onLimit={(l) => {
              setLimit(l);
              setPage(1);
            }}
          />
        </>
      )}
    </div>
  );
}

type Bounce = NonNullable<ReturnType<typeof useBounces>["data"]>["bounces"][number];

function BounceRow({ b }: { b: Bounce }) {
  return (
    <Tr>
      <Td className="text-xs whitespace-nowrap text-gray-600">{dateTime(b.at)}</Td>
      <Td>
        <Badge tone={KIND_TONE[b.kind]}>{b.kind}</Badge>
      </Td>
      <Td>{b.leadEmail}</Td>
      <Td className="text-gray-600">{b.mailboxEmail}</Td>
      <Td className="text-gray-600">
        {b.campaign?.name ?? "—"}
        {b.stepOrder !== null && <span className="text-xs text-gray-500"> · step {b.stepOrder + 1}</span>}
      </Td>
      <Td className="font-mono text-xs">{b.code ?? "—"}</Td>
      <Td className="max-w-md truncate text-xs text-gray-700" title={b.reason ?? "Not recorded before 2 Oct 2026"}>
        {b.reason ?? "—"}
      </Td>
    </Tr>
  );
}
