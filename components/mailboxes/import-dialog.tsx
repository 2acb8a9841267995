"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CsvImportDialog } from "@/components/import/csv-import-dialog";
import { ImportSummary, SummaryList } from "@/components/import/import-summary";
import { useCsvImport } from "@/components/import/use-csv-import";
import { Select } from "@/components/ui/input";
import { client, data } from "@/components/api-client";
import type { BulkImportResult } from "./connect-dialog";
import {
  guessMailboxMapping,
  MAILBOX_FIELDS,
  mailboxMappingProblems,
  rowToMailbox,
  type MailboxColumnTarget,
  type RowResult,
} from "./csv-mapping";

/**
 * Mailboxes per request. The API takes 1,000, but each one is a real SMTP and IMAP login: small batches
 * keep each request short and the progress bar honest.
 */
const BATCH = 100;
/** How many failures the summary lists; the count is always complete. */
const LIST_MAX = 200;

interface Failure {
  /** CSV line (the header is line 1). */
  line: number;
  email: string;
  error: string;
  smtpResponseCode?: number;
}

interface Totals {
  created: number;
  updated: number;
  failedCount: number;
  failed: Failure[];
}

const EMPTY: Totals = { created: 0, updated: 0, failedCount: 0, failed: [] };

export function MailboxImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [verify, setVerify] = useState(true);
  const imp = useCsvImport<MailboxColumnTarget, RowResult, Totals>({
    batchSize: BATCH,
    emptyTotals: EMPTY,
    guessMapping: guessMailboxMapping,
    mappingProblems: mailboxMappingProblems,
    toItem: rowToMailbox,
    sendBatch: async (rows, start) => {
      const batch = rows.map((r, i) => ({ r, line: start + i + 2 }));
      const invalid: Failure[] = batch.flatMap(({ r, line }) => (r.ok ? [] : [{ line, email: r.email, error: r.error }]));
      const valid = batch.flatMap(({ r, line }) => (r.ok ? [{ item: r.item, line }] : []));
      let result: BulkImportResult = { created: 0, updated: 0, failed: [], mailboxes: [] };
      if (valid.length > 0) {
        result = await data(client.POST("/mailboxes/bulk-import", { body: { mailboxes: valid.map((v) => v.item), verify } }));
      }
      // The API names failures by address; the line is that address's first row in the batch.
      const lineOf = (email: string) => valid.find((v) => v.item.email.toLowerCase() === email.toLowerCase())?.line ?? 0;
      const failures = [...invalid, ...result.failed.map((f) => ({ ...f, line: lineOf(f.email) }))].sort((a, b) => a.line - b.line);
      return (t) => ({
        created: t.created + result.created,
        updated: t.updated + result.updated,
        failedCount: t.failedCount + failures.length,
        failed: [...t.failed, ...failures].slice(0, LIST_MAX),
      });
    },
    refresh: () => {
      void queryClient.invalidateQueries({ queryKey: ["mailboxes"] });
      void queryClient.invalidateQueries({ queryKey: ["domains"] });
    },
    onReset: () => setVerify(true),
    onClose,
  });

  return (
    <CsvImportDialog
      open={open}
      title="Import mailboxes from CSV"
      flow={imp}
      intro={
        <>
          One mailbox per row, with its SMTP and IMAP settings. Usernames default to the address and the IMAP password to the SMTP one. An
          address that already exists gets the new settings; its warmup and history are kept.
        </>
      }
      hideSample={(h, i) => /password/i.test(h) || /Password$/.test(imp.mapping[i])}
      renderTarget={(h, i) => (
        <Select
          aria-label={`Import column ${h} as`}
          value={imp.mapping[i]}
          onChange={(e) => imp.mapColumn(i, e.target.value as MailboxColumnTarget)}
          className="w-56"
        >
          {MAILBOX_FIELDS.map((f) => (
            <option key={f.key} value={f.key}>
              {f.label}
              {f.required ? " *" : ""}
            </option>
          ))}
          <option value="ignore">Ignore</option>
        </Select>
      )}
      afterMapping={
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input type="checkbox" checked={verify} onChange={(e) => setVerify(e.target.checked)} />
          Try each mailbox&apos;s SMTP and IMAP logins before saving it (recommended; a refused login is reported and not saved)
        </label>
      }
      summary={<Summary totals={imp.totals} finished={imp.stage === "done"} />}
    />
  );
}

function Summary({ totals, finished }: { totals: Totals; finished: boolean }) {
  const cells = [
    { label: "Created", value: totals.created },
    { label: "Updated", value: totals.updated },
    { label: "Failed", value: totals.failedCount },
  ];
  return (
    <ImportSummary finished={finished} cells={cells}>
      {totals.failed.length > 0 && (
        <SummaryList
          title={
            <>Not imported{totals.failedCount > totals.failed.length ? ` (first ${totals.failed.length} of ${totals.failedCount})` : ""}</>
          }
          open
        >
          {totals.failed.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only report, built once and never reordered; a line can carry several entries
            <li key={i}>
              {f.line > 0 && `Line ${f.line}: `}
              <span className="font-mono">{f.email || "(no email)"}</span> — {f.error}
              {f.smtpResponseCode !== undefined && ` (SMTP ${f.smtpResponseCode})`}
            </li>
          ))}
        </SummaryList>
      )}
    </ImportSummary>
  );
}
