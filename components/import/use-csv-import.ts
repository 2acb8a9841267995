"use client";

import Papa from "papaparse";
import { type RefObject, useRef, useState } from "react";
import { describeError } from "@/components/api-client";

/** A CSV file as read: its header names and one record per data row, keyed by header. */
export interface ParsedCsv {
  fileName: string;
  headers: string[];
  rows: Record<string, string>[];
}

export type ImportStage = "pick" | "map" | "import" | "done";

export function rowsLabel(n: number): string {
  return `${n.toLocaleString()} row${n === 1 ? "" : "s"}`;
}

/**
 * Reads a CSV file with a header row. A file with no header, no data rows or broken quoting is an error;
 * row-level quirks (a row with too few cells) are kept: missing cells are simply empty.
 */
export function parseCsvFile(file: File, onParsed: (parsed: ParsedCsv) => void, onError: (message: string) => void): void {
  Papa.parse<Record<string, string>>(file, {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim(),
    complete: (res) => {
      const headers = (res.meta.fields ?? []).filter((h) => h !== "");
      if (headers.length === 0) return onError("The file has no header row: the first line must name the columns.");
      if (res.data.length === 0) return onError("The file has a header row but no data rows.");
      const fatal = res.errors.find((e) => e.type === "Quotes");
      if (fatal) return onError(`Line ${(fatal.row ?? 0) + 2}: ${fatal.message}`);
      onParsed({ fileName: file.name, headers, rows: res.data });
    },
    error: (err) => onError(`Could not read the file: ${err.message}`),
  });
}

export interface CsvImportOptions<Target, Item, Totals> {
  /** Rows per request. */
  batchSize: number;
  emptyTotals: Totals;
  /** A first mapping for the file's columns. */
  guessMapping: (headers: string[]) => Target[];
  /** What is wrong with a mapping, or nothing when it can be imported. */
  mappingProblems: (mapping: Target[]) => string[];
  /** One CSV row as what is sent. */
  toItem: (row: Record<string, string>, headers: string[], mapping: Target[]) => Item;
  /**
   * Sends one batch; `start` is the index of its first row (its CSV line is `start + 2`). Returns how the
   * batch's outcome adds to the totals.
   */
  sendBatch: (batch: Item[], start: number) => Promise<(totals: Totals) => Totals>;
  /** Refetches what the import changed; runs when it finishes and when the dialog closes after starting. */
  refresh: () => void;
  /** Clears the caller's own state along with the import's ("Choose another file", closing). */
  onReset?: () => void;
  onClose: () => void;
}

/** Sends the items in batches from an offset, keeping the rows done, the running totals and the error that stopped it. */
function useBatchRun<Target, Item, Totals>(
  options: CsvImportOptions<Target, Item, Totals>,
  itemsRef: RefObject<Item[]>,
  onDone: () => void,
) {
  const { batchSize, emptyTotals } = options;
  const [done, setDone] = useState(0);
  const [totals, setTotals] = useState<Totals>(emptyTotals);
  const [importError, setImportError] = useState<string>();
  const [running, setRunning] = useState(false);

  function clear() {
    setDone(0);
    setTotals(emptyTotals);
    setImportError(undefined);
  }

  async function runFrom(offset: number) {
    const items = itemsRef.current;
    setRunning(true);
    setImportError(undefined);
    try {
      for (let start = offset; start < items.length; start += batchSize) {
        const batch = items.slice(start, start + batchSize);
        const add = await options.sendBatch(batch, start);
        setTotals(add);
        setDone(start + batch.length);
      }
      onDone();
      options.refresh();
    } catch (e) {
      setImportError(describeError(e));
    } finally {
      setRunning(false);
    }
  }

  return { done, totals, importError, running, clear, runFrom };
}

/**
 * The state of a CSV import dialog: pick a file → map its columns → send the rows in batches with
 * progress → a summary. A failed batch stops the import; it can resume from the first row not sent.
 */
export function useCsvImport<Target, Item, Totals>(options: CsvImportOptions<Target, Item, Totals>) {
  const [stage, setStage] = useState<ImportStage>("pick");
  const [parsed, setParsed] = useState<ParsedCsv>();
  const [parseError, setParseError] = useState<string>();
  const [mapping, setMapping] = useState<Target[]>([]);
  // The items are built once when the import starts, so a resume sends exactly the remaining rows.
  const itemsRef = useRef<Item[]>([]);
  const { done, totals, importError, running, clear, runFrom } = useBatchRun(options, itemsRef, () => setStage("done"));

  function reset() {
    setStage("pick");
    setParsed(undefined);
    setParseError(undefined);
    setMapping([]);
    options.onReset?.();
    clear();
    itemsRef.current = [];
  }

  function close() {
    if (running) return; // a batch is in flight; closing would hide its outcome
    if (stage === "import" || stage === "done") options.refresh();
    reset();
    options.onClose();
  }

  function onFile(file: File | undefined) {
    setParseError(undefined);
    if (!file) return;
    parseCsvFile(
      file,
      (p) => {
        setParsed(p);
        setMapping(options.guessMapping(p.headers));
        setStage("map");
      },
      setParseError,
    );
  }

  function start() {
    if (!parsed) return;
    itemsRef.current = parsed.rows.map((row) => options.toItem(row, parsed.headers, mapping));
    clear();
    setStage("import");
    void runFrom(0);
  }

  /** Changes where column `index` goes. */
  function mapColumn(index: number, target: Target) {
    setMapping((m) => m.map((x, j) => (j === index ? target : x)));
  }

  return {
    stage,
    parsed,
    parseError,
    mapping,
    mapColumn,
    problems: stage === "map" ? options.mappingProblems(mapping) : [],
    done,
    total: itemsRef.current.length || parsed?.rows.length || 0,
    totals,
    importError,
    running,
    reset,
    close,
    onFile,
    start,
    resume: () => void runFrom(done),
  };
}

/** What the dialog around an import needs of it, whatever it imports. */
export interface CsvImportFlow {
  stage: ImportStage;
  parsed?: ParsedCsv;
  parseError?: string;
  problems: string[];
  done: number;
  total: number;
  importError?: string;
  running: boolean;
  reset: () => void;
  close: () => void;
  onFile: (file: File | undefined) => void;
  start: () => void;
  resume: () => void;
}
