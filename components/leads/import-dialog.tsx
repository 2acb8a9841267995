"use client";

import { useQueryClient } from "@tanstack/react-query";
import Papa from "papaparse";
import { useRef, useState } from "react";
import { apiFetch, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input, Select } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import type { CreateLeadsResult, LeadInput } from "@/lib/leads/schemas";
import { guessMapping, LEAD_FIELDS, mappingProblems, rowToLead, customFieldName, type ColumnTarget, type LeadFieldKey } from "./csv-mapping";

/** POST /leads takes at most 1,000 leads per call (spec 8). */
const BATCH = 1000;
/** How many invalid rows and warnings the summary lists; the counts are always complete. */
const LIST_MAX = 100;

interface Parsed {
  fileName: string;
  headers: string[];
  rows: Record<string, string>[];
}

interface Totals {
  created: number;
  updated: number;
  suppressed: number;
  invalid: number;
  /** Row numbers are CSV line numbers (the header is line 1). */
  invalidRows: { line: number; email: string; reason: string }[];
  warnings: { line: number; email: string; message: string }[];
}

const EMPTY_TOTALS: Totals = { created: 0, updated: 0, suppressed: 0, invalid: 0, invalidRows: [], warnings: [] };

type Stage = "pick" | "map" | "import" | "done";

function rowsLabel(n: number): string {
  return `${n.toLocaleString()} row${n === 1 ? "" : "s"}`;
}

function targetValue(t: ColumnTarget): string {
  return t.kind === "field" ? `field:${t.field}` : t.kind;
}

export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>("pick");
  const [parsed, setParsed] = useState<Parsed>();
  const [parseError, setParseError] = useState<string>();
  const [mapping, setMapping] = useState<ColumnTarget[]>([]);
  const [done, setDone] = useState(0);
  const [totals, setTotals] = useState<Totals>(EMPTY_TOTALS);
  const [importError, setImportError] = useState<string>();
  const [running, setRunning] = useState(false);
  // The leads are built once when the import starts, so a resume sends exactly the remaining rows.
  const leadsRef = useRef<LeadInput[]>([]);

  function reset() {
    setStage("pick");
    setParsed(undefined);
    setParseError(undefined);
    setMapping([]);
    setDone(0);
    setTotals(EMPTY_TOTALS);
    setImportError(undefined);
    leadsRef.current = [];
  }

  function close() {
    if (running) return; // a batch is in flight; closing would hide its outcome
    if (stage === "import" || stage === "done") void queryClient.invalidateQueries({ queryKey: ["leads"] });
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
        // Row-level quirks (a row with too few cells) are kept: missing cells are simply empty.
        const fatal = res.errors.find((e) => e.type === "Quotes");
        if (fatal) return setParseError(`Line ${(fatal.row ?? 0) + 2}: ${fatal.message}`);
        setParsed({ fileName: file.name, headers, rows: res.data });
        setMapping(guessMapping(headers));
        setStage("map");
      },
      error: (err) => setParseError(`Could not read the file: ${err.message}`),
    });
  }

  async function runFrom(offset: number) {
    const leads = leadsRef.current;
    setRunning(true);
    setImportError(undefined);
    try {
      for (let start = offset; start < leads.length; start += BATCH) {
        const batch = leads.slice(start, start + BATCH);
        const r = await apiFetch<CreateLeadsResult>("/api/v1/leads", { method: "POST", body: { leads: batch } });
        setTotals((t) => ({
          created: t.created + r.created,
          updated: t.updated + r.updated,
          suppressed: t.suppressed + r.suppressed,
          invalid: t.invalid + r.invalid,
          invalidRows: [...t.invalidRows, ...r.invalidEmails.map((x) => ({ line: start + x.index + 2, email: x.email, reason: x.reason }))].slice(0, LIST_MAX),
          warnings: [...t.warnings, ...r.warnings.map((w) => ({ line: start + w.index + 2, email: w.email, message: `${w.field}: ${w.message}` }))].slice(0, LIST_MAX),
        }));
        setDone(start + batch.length);
      }
      setStage("done");
      void queryClient.invalidateQueries({ queryKey: ["leads"] });
    } catch (e) {
      setImportError(describeError(e));
    } finally {
      setRunning(false);
    }
  }

  function start() {
    if (!parsed) return;
    leadsRef.current = parsed.rows.map((row) => rowToLead(row, parsed.headers, mapping));
    setDone(0);
    setTotals(EMPTY_TOTALS);
    setStage("import");
    void runFrom(0);
  }

  const problems = stage === "map" ? mappingProblems(mapping) : [];
  const total = leadsRef.current.length || parsed?.rows.length || 0;

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
    <Dialog open={open} onClose={close} title="Import leads from CSV" wide footer={footer}>
      {stage === "pick" && (
        <div className="space-y-3 text-sm text-gray-700">
          <p>
            The first line must name the columns. Leads are matched by email: an address that already exists is updated with the
            non-empty cells, and suppressed addresses are skipped.
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
            <span className="font-medium">{parsed.fileName}</span>: {rowsLabel(parsed.rows.length)}. Choose where each column
            goes.
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
              {parsed.headers.map((h, i) => {
                const t = mapping[i];
                return (
                  <Tr key={h}>
                    <Td className="font-medium">{h}</Td>
                    <Td className="max-w-56 truncate text-gray-500">
                      {parsed.rows
                        .slice(0, 3)
                        .map((r) => r[h])
                        .filter(Boolean)
                        .join(", ")}
                    </Td>
                    <Td>
                      <div className="flex gap-2">
                        <Select
                          aria-label={`Import column ${h} as`}
                          value={targetValue(t)}
                          onChange={(e) => {
                            const v = e.target.value;
                            const next: ColumnTarget =
                              v === "ignore"
                                ? { kind: "ignore" }
                                : v === "custom"
                                  ? { kind: "custom", name: customFieldName(h) }
                                  : { kind: "field", field: v.slice("field:".length) as LeadFieldKey };
                            setMapping((m) => m.map((x, j) => (j === i ? next : x)));
                          }}
                          className="w-44"
                        >
                          {LEAD_FIELDS.map((f) => (
                            <option key={f.key} value={`field:${f.key}`}>
                              {f.label}
                            </option>
                          ))}
                          <option value="custom">Custom field</option>
                          <option value="ignore">Ignore</option>
                        </Select>
                        {t.kind === "custom" && (
                          <Input
                            aria-label={`Custom field name for ${h}`}
                            value={t.name}
                            maxLength={100}
                            onChange={(e) => setMapping((m) => m.map((x, j) => (j === i ? { kind: "custom", name: e.target.value.replace(/[{}]/g, "") } : x)))}
                            className="w-40"
                          />
                        )}
                      </div>
                    </Td>
                  </Tr>
                );
              })}
            </TBody>
          </Table>
          {problems.map((p) => (
            <Alert key={p} tone="warning">
              {p}
            </Alert>
          ))}
          <p className="text-xs text-gray-500">Custom fields become template variables, e.g. {"{{industry}}"}.</p>
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
    { label: "Suppressed", value: totals.suppressed },
    { label: "Invalid", value: totals.invalid },
  ];
  return (
    <div className="space-y-3" data-testid="import-summary">
      {finished && <Alert tone="success">Import finished.</Alert>}
      <dl className="grid grid-cols-4 gap-2">
        {cells.map((c) => (
          <div key={c.label} className="rounded-lg border border-gray-200 bg-gray-50 px-3 py-2" data-testid={`import-${c.label.toLowerCase()}`}>
            <dt className="text-xs text-gray-600">{c.label}</dt>
            <dd className="text-lg font-semibold text-gray-900">{c.value.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {totals.invalidRows.length > 0 && (
        <details open className="text-sm">
          <summary className="cursor-pointer font-medium text-gray-800">Rows not imported</summary>
          <ul className="mt-1 space-y-0.5 text-gray-700">
            {totals.invalidRows.map((r) => (
              <li key={r.line}>
                Line {r.line}: <span className="font-mono">{r.email || "(no email)"}</span> — {r.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {totals.warnings.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-gray-800">Warnings ({totals.warnings.length})</summary>
          <ul className="mt-1 space-y-0.5 text-gray-700">
            {totals.warnings.map((w, i) => (
              <li key={i}>
                Line {w.line} ({w.email}): {w.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
