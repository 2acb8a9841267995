"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { type BlacklistJob, type BlacklistResult, useBlacklistResults } from "./queries";

function Verdict({ r }: { r: BlacklistResult }) {
  if (r.listed) return <Badge tone="red">Listed</Badge>;
  if (r.failed) return <Badge tone="yellow">No answer</Badge>;
  return <Badge tone="green">Not listed</Badge>;
}

/** A job's answers, listings first; the table follows the job's progress while it runs. */
export function BlacklistResults({ job }: { job: BlacklistJob }) {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(50);
  const [onlyListed, setOnlyListed] = useState(false);
  const results = useBlacklistResults(job.id, page, limit, onlyListed, job.done);
  const rows = results.data?.results ?? [];
  return (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-sm text-gray-700">
        <input
          type="checkbox"
          checked={onlyListed}
          onChange={(e) => {
            setOnlyListed(e.target.checked);
            setPage(1);
          }}
        />
        Only listings
      </label>
      {results.error && <Alert tone="error">Could not load the results: {describeError(results.error)}</Alert>}
      <Table aria-label="Blacklist results" aria-busy={results.isFetching}>
        <THead>
          <tr>
            <Th>Target</Th>
            <Th>Type</Th>
            <Th>Blocklist</Th>
            <Th>Result</Th>
            <Th>Answer</Th>
          </tr>
        </THead>
        <TBody>
          {rows.map((r) => (
            <Tr key={`${r.target} ${r.zone}`} data-testid="blacklist-result">
              <Td className="font-mono text-xs">{r.target}</Td>
              <Td>{r.type === "ip" ? "IP" : "Domain"}</Td>
              <Td>{r.zone}</Td>
              <Td>
                <Verdict r={r} />
              </Td>
              <Td className="max-w-md break-words text-xs text-gray-600">{r.answer ?? "—"}</Td>
            </Tr>
          ))}
          {results.data && rows.length === 0 && (
            <tr>
              <Td colSpan={5} className="py-6 text-center text-gray-500">
                {onlyListed ? "Nothing listed." : "No answers yet."}
              </Td>
            </tr>
          )}
        </TBody>
      </Table>
      <Pager
        page={page}
        limit={limit}
        total={results.data?.total ?? 0}
        shown={rows.length}
        sizes={[50, 100, 200]}
        onPage={setPage}
        onLimit={(l) => {
          setLimit(l);
          setPage(1);
        }}
      />
    </div>
  );
}
