"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { client, data, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import type { ResponseOf } from "@/lib/client";
import { entriesOf, parseSuppressionFile, type SuppressionCsv } from "./suppressions-csv";

type Result = ResponseOf<"/suppressions/bulk", "post">["results"][number];
type Kind = "" | "email" | "domain";

/** Rows per request (the API takes up to 1,000). */
const BATCH = 250;
/** Problem rows listed after an import; the counts above them cover every row. */
const SHOWN_PROBLEMS = 200;

interface Totals {
  added: number;
  existing: number;
  duplicate: number;
  invalid: number;
}
const ZERO: Totals = { added: 0, existing: 0, duplicate: 0, invalid: 0 };

const RESULT_LABEL: Record<Result["result"], string> = {
  added: "Added",
  existing: "Already listed",
  duplicate: "Duplicate in the file",
  invalid: "Not imported",
};

function addTotals(t: Totals, r: Totals): Totals {
  return {
    added: t.added + r.added,
    existing: t.existing + r.existing,
    duplicate: t.duplicate + r.duplicate,
    invalid: t.invalid + r.invalid,
  };
}

/** Send one batch of rows; the rows that were not added come back named by their line in the file. */
async function importBatch(batch: { value: string; line: number }[], kind: Kind) {
  const r = await data(
    client.POST("/suppressions/bulk", { body: { entries: batch.map((e) => ({ value: e.value, ...(kind ? { kind } : {}) })) } }),
  );
  const bad = r.results.filter((x) => x.result === "invalid" || x.result === "duplicate");
  // Rows are named by their line in the file, here and in the reason of a duplicate.
  const lineOf = (i: number) => batch[i].line;
  const named = bad.map((x) => ({
    ...x,
    line: lineOf(x.index),
    error: x.duplicateOf === null ? x.error : `the same ${x.kind === "domain" ? "domain" : "address"} as row ${lineOf(x.duplicateOf)}`,
  }));
  return { r, named };
}

/** The import's state: the parsed file, the chosen column and kind, and the batched upload with its running totals. */
function useSuppressionsImport() {
  const queryClient = useQueryClient();
  const fileRef = useRef<HTMLInputElement>(null);
  const [csv, setCsv] = useState<SuppressionCsv>();
  const [column, setColumn] = useState(0);
  const [kind, setKind] = useState<Kind>("");
  const [parseError, setParseError] = useState<string>();
  const [done, setDone] = useState(0);
  const [total, setTotal] = useState(0);
  const [totals, setTotals] = useState<Totals>(ZERO);
  const [problems, setProblems] = useState<(Result & { line: number })[]>([]);
  const [running, setRunning] = useState(false);
  const [finished, setFinished] = useState(false);
  const [error, setError] = useState<string>();

  function reset() {
    setCsv(undefined);
    setParseError(undefined);
    setDone(0);
    setTotal(0);
    setTotals(ZERO);
    setProblems([]);
    setFinished(false);
    setError(undefined);
    if (fileRef.current) fileRef.current.value = "";
  }

  function onFile(file: File | undefined) {
    reset();
    const onParsed = (parsed: SuppressionCsv) => {
      setCsv(parsed);
      setColumn(parsed.column);
    };
    if (file) parseSuppressionFile(file, onParsed, setParseError);
  }

  async function run(from: number) {
    if (!csv) return;
    const entries = entriesOf(csv, column);
    setTotal(entries.length);
    setRunning(true);
    setError(undefined);
    try {
      for (let start = from; start < entries.length; start += BATCH) {
        const batch = entries.slice(start, start + BATCH);
        const { r, named } = await importBatch(batch, kind);
        setTotals((t) => addTotals(t, r));
        setProblems((p) => [...p, ...named]);
        setDone(start + batch.length);
      }
      setFinished(true);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setRunning(false);
      void queryClient.invalidateQueries({ queryKey: ["suppressions"] });
    }
  }

  return {
    fileRef,
    csv,
    column,
    setColumn,
    kind,
    setKind,
    parseError,
    done,
    total,
    totals,
    problems,
    running,
    finished,
    error,
    reset,
    onFile,
    run,
  };
}

/**
 * Import a CSV of addresses and/or domains: the file is read in the browser (papaparse), one column is
 * taken (guessed, changeable), and its rows go to POST /suppressions/bulk in batches with a progress
 * bar. Each row's result comes back; rows that were not added are listed with the reason.
 */
export function SuppressionsImport() {
  const inputId = useId();
  const {
    fileRef,
    csv,
    column,
    setColumn,
    kind,
    setKind,
    parseError,
    done,
    total,
    totals,
    problems,
    running,
    finished,
    error,
    reset,
    onFile,
    run,
  } = useSuppressionsImport();
  const started = done > 0 || running;
  return (
    <section className="min-w-0 space-y-3 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby={`${inputId}-title`}>
      <div>
        <h2 id={`${inputId}-title`} className="text-sm font-semibold text-gray-900">
          Import a CSV
        </h2>
        <p className="text-sm text-gray-600">
          One address or domain per row (other columns are ignored; a header row is recognised). Duplicates within the file and entries
          already listed are skipped.
        </p>
      </div>
      <Field label="CSV file">
        <input
          ref={fileRef}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          disabled={running}
          onChange={(e) => onFile(e.target.files?.[0])}
          className="block w-full min-w-0 text-sm text-gray-700 file:mr-3 file:rounded-md file:border file:border-gray-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
        />
      </Field>
      {parseError && <Alert tone="error">{parseError}</Alert>}
      {csv && (
        <div className="space-y-3">
          <p className="text-sm text-gray-700" data-testid="suppressions-import-file">
            {csv.fileName}: {csv.rows.length.toLocaleString()} row{csv.rows.length === 1 ? "" : "s"}
            {csv.hasHeader ? " after the header" : ""}.
          </p>
          <ImportOptions csv={csv} column={column} setColumn={setColumn} kind={kind} setKind={setKind} started={started} />
          {!started && (
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => void run(0)}>Import {csv.rows.length.toLocaleString()} rows</Button>
              <Button variant="secondary" onClick={reset}>
                Cancel
              </Button>
            </div>
          )}
        </div>
      )}
      {started && <Progress value={done} max={total} label="rows imported" />}
      {error && (
        <Alert tone="error">
          The import stopped after {done.toLocaleString()} rows: {error}{" "}
          <Button size="sm" variant="secondary" onClick={() => void run(done)}>
            Resume
          </Button>
        </Alert>
      )}
      {(finished || (done > 0 && !running)) && <ImportSummary finished={finished} totals={totals} problems={problems} onReset={reset} />}
    </section>
  );
}

/** What an import did: the counts over every row, then the rows that were not added with the reason. */
function ImportSummary({
  finished,
  totals,
  problems,
  onReset,
}: {
  finished: boolean;
  totals: Totals;
  problems: (Result & { line: number })[];
  onReset: () => void;
}) {
  return (
    <div className="space-y-2" data-testid="suppressions-import-summary">
      <p className="text-sm text-gray-800">
        {finished ? "Import finished: " : "So far: "}
        {totals.added.toLocaleString()} added, {totals.existing.toLocaleString()} already listed, {totals.duplicate.toLocaleString()}{" "}
        duplicate, {totals.invalid.toLocaleString()} invalid.
      </p>
      {problems.length > 0 && (
        <Table aria-label="Rows not imported">
          <THead>
            <tr>
              <Th>Row</Th>
              <Th>Value</Th>
              <Th>Result</Th>
              <Th>Why</Th>
            </tr>
          </THead>
          <TBody>
            {problems.slice(0, SHOWN_PROBLEMS).map((p) => (
              <Tr key={p.line}>
                <Td className="tabular-nums">{p.line}</Td>
                <Td className="max-w-48 truncate font-mono text-xs" title={p.value}>
                  {p.value || "(empty)"}
                </Td>
                <Td className="whitespace-nowrap">{RESULT_LABEL[p.result]}</Td>
                <Td className="text-xs text-gray-600">{p.error}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      {problems.length > SHOWN_PROBLEMS && (
        <p className="text-xs text-gray-500">…and {(problems.length - SHOWN_PROBLEMS).toLocaleString()} more rows not imported.</p>
      )}
      {finished && (
        <Button variant="secondary" size="sm" onClick={onReset}>
          Import another file
        </Button>
      )}
    </div>
  );
}

/** Which column of the file to take and whether its values are addresses, domains or detected per row. */
function ImportOptions({
  csv,
  column,
  setColumn,
  kind,
  setKind,
  started,
}: {
  csv: SuppressionCsv;
  column: number;
  setColumn: (c: number) => void;
  kind: Kind;
  setKind: (k: Kind) => void;
  started: boolean;
}) {
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      {csv.columns.length > 1 && (
        <Field label="Column to import">
          <Select value={String(column)} disabled={started} onChange={(e) => setColumn(Number(e.target.value))}>
            {csv.columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position; names may repeat
              <option key={i} value={i}>
                {c}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <Field label="Entries are" hint="Automatic: a value with an @ after a name is an address, any other a domain.">
        <Select value={kind} disabled={started} onChange={(e) => setKind(e.target.value as Kind)}>
          <option value="">Detected per row</option>
          <option value="email">All addresses</option>
          <option value="domain">All domains</option>
        </Select>
      </Field>
    </div>
  );
}
