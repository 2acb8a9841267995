"use client";

import { useQueryClient } from "@tanstack/react-query";
import Papa from "papaparse";
import { useRef, useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Select } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { apiRequest } from "./api";
import type { BulkImportResult } from "./connect-dialog";
import { guessMailboxMapping, MAILBOX_FIELDS, mailboxMappingProblems, rowToMailbox, type MailboxColumnTarget, type RowResult } from "./csv-mapping";

/**
 * Mailboxes per request. The API takes 1,000, but each one is a real SMTP and IMAP login: small batches
 * keep each request short and the progress bar honest.
 */
const BATCH = 100;
/** How many failures the summary lists; the count is always complete. */
const LIST_MAX = 200;

interface Parsed {
  fileName: string;
  headers: string[];
  rows: Record<string, string>[];
}

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

type Stage = "pick" | "map" | "import" | "done";

function rowsLabel(n: number): string {
  return `${n.toLocaleString()} row${n === 1 ? "" : "s"}`;
}

export function MailboxImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>("pick");
  const [parsed, setParsed] = useState<Parsed>();
  const [parseError, setParseError] = useState<string>();
  const [mapping, setMapping] = useState<MailboxColumnTarget[]>([]);
  const [verify, setVerify] = useState(true);
  const [done, setDone] = useState(0);
  const [totals, setTotals] = useState<Totals>(EMPTY);
  const [importError, setImportError] = useState<string>();
  const [running, setRunning] = useState(false);
  // Built once when the import starts, so a resume sends exactly the remaining rows.
  const rowsRef = useRef<RowResult[]>([]);

  function reset() {
    setStage("pick");
    setParsed(undefined);
    setParseError(undefined);
    setMapping([]);
    setVerify(true);
    setDone(0);
    setTotals(EMPTY);
    setImportError(undefined);
    rowsRef.current = [];
  }

  function refresh() {
    void queryClient.invalidateQueries({ queryKey: ["mailboxes"] });
    void queryClient.invalidateQueries({ queryKey: ["domains"] });
  }

  function close() {
    if (running) return; // a batch is in flight; closing would hide its outcome
    if (stage === "import" || stage === "done") refresh();
    reset();
    onClose();
  }

  function onFile(file: File | undefined) {
    setParseError(undefined);
    if (!file) return;
    Papa.parse<Record<string, string>>(file, {
      header: true,
      skipEmptyLines: "greedy",
      transformHeader: (h) => h.trim(),
      complete: (res) => {
        const headers = (res.meta.fields ?? []).filter((h) => h !== "");
        if (headers.length === 0) return setParseError("The file has no header row: the first line must name the columns.");
        if (res.data.length === 0) return setParseError("The file has a header row but no data rows.");
        const fatal = res.errors.find((e) => e.type === "Quotes");
        if (fatal) return setParseError(`Line ${(fatal.row ?? 0) + 2}: ${fatal.message}`);
        setParsed({ fileName: file.name, headers, rows: res.data });
        setMapping(guessMailboxMapping(headers));
        setStage("map");
      },
      error: (err) => setParseError(`Could not read the file: ${err.message}`),
    });
  }

  async function runFrom(offset: number) {
    const rows = rowsRef.current;
    setRunning(true);
    setImportError(undefined);
    try {
      for (let start = offset; start < rows.length; start += BATCH) {
        const batch = rows.slice(start, start + BATCH).map((r, i) => ({ r, line: start + i + 2 }));
        const invalid: Failure[] = batch.flatMap(({ r, line }) => (r.ok ? [] : [{ line, email: r.email, error: r.error }]));
        const valid = batch.flatMap(({ r, line }) => (r.ok ? [{ item: r.item, line }] : []));
        let result: BulkImportResult = { created: 0, updated: 0, failed: [], mailboxes: [] };
        if (valid.length > 0) {
          result = (await apiRequest<BulkImportResult>("/api/v1/mailboxes/bulk-import", { method: "POST", body: { mailboxes: valid.map((v) => v.item), verify } })).data;
        }
        // The API names failures by address; the line is that address's first row in the batch.
        const lineOf = (email: string) => valid.find((v) => v.item.email.toLowerCase() === email.toLowerCase())?.line ?? 0;
        const failures = [...invalid, ...result.failed.map((f) => ({ ...f, line: lineOf(f.email) }))].sort((a, b) => a.line - b.line);
        setTotals((t) => ({
          created: t.created + result.created,
          updated: t.updated + result.updated,
          failedCount: t.failedCount + failures.length,
          failed: [...t.failed, ...failures].slice(0, LIST_MAX),
        }));
        setDone(start + batch.length);
      }
      setStage("done");
      refresh();
    } catch (e) {
      setImportError(describeError(e));
    } finally {
      setRunning(false);
    }
  }

  function start() {
    if (!parsed) return;
    rowsRef.current = parsed.rows.map((row) => rowToMailbox(row, parsed.headers, mapping));
    setDone(0);
    setTotals(EMPTY);
    setStage("import");
    void runFrom(0);
  }

  const problems = stage === "map" ? mailboxMappingProblems(mapping) : [];
  const total = rowsRef.current.length || parsed?.rows.length || 0;

  const footer =
    stage === "map" ? (
      <>
        <Button variant="secondary" onClick={reset}>
          Choose another file
        </Button>
        <Button onClick={start} disabled={problems.length > 0}>
          Import {rowsLabel(parsed?.rows.length ?? 0)}
        </Button>
      </>
    ) : stage === "import" ? (
      <>
        {importError && !running && (
          <Button variant="secondary" onClick={() => void runFrom(done)}>
            Resume from row {(done + 1).toLocaleString()}
          </Button>
        )}
        <Button variant="secondary" onClick={close} disabled={running}>
          {running ? "Importing…" : "Close"}
        </Button>
      </>
    ) : stage === "done" ? (
      <Button onClick={close}>Done</Button>
    ) : undefined;

  return (
    <Dialog open={open} onClose={close} title="Import mailboxes from CSV" wide footer={footer}>
      {stage === "pick" && (
        <div className="space-y-3 text-sm text-gray-700">
          <p>
            One mailbox per row, with its SMTP and IMAP settings. Usernames default to the address and the IMAP password to the SMTP
            one. An address that already exists gets the new settings; its warmup and history are kept.
          </p>
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label="CSV file"
            onChange={(e) => onFile(e.target.files?.[0])}
            className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:text-indigo-700 hover:file:bg-indigo-100"
          />
          {parseError && <Alert tone="error">{parseError}</Alert>}
        </div>
      )}

      {stage === "map" && parsed && (
        <div className="space-y-3">
          <p className="text-sm text-gray-700">
            <span className="font-medium">{parsed.fileName}</span>: {rowsLabel(parsed.rows.length)}. Choose where each column goes.
          </p>
          <Table>
            <THead>
              <tr>
                <Th>Column</Th>
                <Th>Sample</Th>
                <Th>Import as</Th>
              </tr>
            </THead>
            <TBody>
              {parsed.headers.map((h, i) => (
                <Tr key={h}>
                  <Td className="font-medium">{h}</Td>
                  <Td className="max-w-56 truncate text-gray-500">
                    {/password/i.test(h) || /Password$/.test(mapping[i])
                      ? "••••••"
                      : parsed.rows
                          .slice(0, 3)
                          .map((r) => r[h])
                          .filter(Boolean)
                          .join(", ")}
                  </Td>
                  <Td>
                    <Select
                      aria-label={`Import column ${h} as`}
                      value={mapping[i]}
                      onChange={(e) => setMapping((m) => m.map((x, j) => (j === i ? (e.target.value as MailboxColumnTarget) : x)))}
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
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          {problems.map((p) => (
            <Alert key={p} tone="warning">
              {p}
            </Alert>
          ))}
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input type="checkbox" checked={verify} onChange={(e) => setVerify(e.target.checked)} />
            Try each mailbox&apos;s SMTP and IMAP logins before saving it (recommended; a refused login is reported and not saved)
          </label>
        </div>
      )}

      {(stage === "import" || stage === "done") && (
        <div className="space-y-4">
          <Progress value={done} max={total} label="rows" />
          {importError && (
            <Alert tone="error">
              Import stopped after {done.toLocaleString()} of {total.toLocaleString()} rows: {importError}
            </Alert>
          )}
          <Summary totals={totals} finished={stage === "done"} />
        </div>
      )}
    </Dialog>
  );
}

function Summary({ totals, finished }: { totals: Totals; finished: boolean }) {
  const cells = [
    { label: "Created", value: totals.created },
    { label: "Updated", value: totals.updated },
    { label: "Failed", value: totals.failedCount },
  ];
  return (
    <div className="space-y-3" data-testid="import-summary">
      {finished && <Alert tone="success">Import finished.</Alert>}
      <dl className="grid grid-cols-3 gap-2">
        {cells.map((c) => (
          <div key={c.label} className="rounded-lg border border-gray-200 bg-gray-50 px-3 py-2" data-testid={`import-${c.label.toLowerCase()}`}>
            <dt className="text-xs text-gray-600">{c.label}</dt>
            <dd className="text-lg font-semibold text-gray-900">{c.value.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {totals.failed.length > 0 && (
        <details open className="text-sm">
          <summary className="cursor-pointer font-medium text-gray-800">
            Not imported{totals.failedCount > totals.failed.length ? ` (first ${totals.failed.length} of ${totals.failedCount})` : ""}
          </summary>
          <ul className="mt-1 space-y-0.5 text-gray-700">
            {totals.failed.map((f, i) => (
              <li key={i}>
                {f.line > 0 && `Line ${f.line}: `}
                <span className="font-mono">{f.email || "(no email)"}</span> — {f.error}
                {f.smtpResponseCode !== undefined && ` (SMTP ${f.smtpResponseCode})`}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
