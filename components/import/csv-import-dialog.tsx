"use client";

import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Progress } from "@/components/ui/progress";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { rowsLabel, type CsvImportFlow, type ParsedCsv } from "./use-csv-import";

/** The dialog's buttons for the step it is at: none while a file is picked. */
function footerOf(flow: CsvImportFlow): ReactNode {
  const { stage, parsed, done, importError, running } = flow;
  return stage === "map" ? (
    <>
      <Button variant="secondary" onClick={flow.reset}>
        Choose another file
      </Button>
      <Button onClick={flow.start} disabled={flow.problems.length > 0}>
        Import {rowsLabel(parsed?.rows.length ?? 0)}
      </Button>
    </>
  ) : stage === "import" ? (
    <>
      {importError && !running && (
        <Button variant="secondary" onClick={flow.resume}>
          Resume from row {(done + 1).toLocaleString()}
        </Button>
      )}
      <Button variant="secondary" onClick={flow.close} disabled={running}>
        {running ? "Importing…" : "Close"}
      </Button>
    </>
  ) : stage === "done" ? (
    <Button onClick={flow.close}>Done</Button>
  ) : undefined;
}

/**
 * The dialog of a CSV import (see useCsvImport): a file picker under `intro`, the column mapping with
 * the mapping's problems and `afterMapping` below it, then the progress bar above `summary`.
 */
export function CsvImportDialog({
  open,
  title,
  flow,
  intro,
  renderTarget,
  hideSample,
  afterMapping,
  summary,
}: {
  open: boolean;
  title: string;
  flow: CsvImportFlow;
  /** What the file must hold and what an import does; the pick step's text. */
  intro: ReactNode;
  /** The "Import as" control(s) for one column. */
  renderTarget: (header: string, index: number) => ReactNode;
  /** Columns whose sample values are masked (passwords). */
  hideSample?: (header: string, index: number) => boolean;
  afterMapping?: ReactNode;
  summary: ReactNode;
}) {
  const { stage, parsed, done, total, importError } = flow;

  const footer = footerOf(flow);

  return (
    <Dialog open={open} onClose={flow.close} title={title} wide footer={footer}>
      {stage === "pick" && (
        <div className="space-y-3 text-sm text-gray-700">
          <p>{intro}</p>
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label="CSV file"
            onChange={(e) => flow.onFile(e.target.files?.[0])}
            className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:text-indigo-700 hover:file:bg-indigo-100"
          />
          {flow.parseError && <Alert tone="error">{flow.parseError}</Alert>}
        </div>
      )}

      {stage === "map" && parsed && (
        <div className="space-y-3">
          <p className="text-sm text-gray-700">
            <span className="font-medium">{parsed.fileName}</span>: {rowsLabel(parsed.rows.length)}. Choose where each column goes.
          </p>
          <ColumnMappingTable parsed={parsed} renderTarget={renderTarget} hideSample={hideSample} />
          {flow.problems.map((p) => (
            <Alert key={p} tone="warning">
              {p}
            </Alert>
          ))}
          {afterMapping}
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
          {summary}
        </div>
      )}
    </Dialog>
  );
}

/** One row per CSV column: its name, up to three sample values and where it goes. */
function ColumnMappingTable({
  parsed,
  renderTarget,
  hideSample,
}: {
  parsed: ParsedCsv;
  renderTarget: (header: string, index: number) => ReactNode;
  hideSample?: (header: string, index: number) => boolean;
}) {
  return (
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
              {hideSample?.(h, i)
                ? "••••••"
                : parsed.rows
                    .slice(0, 3)
                    .map((r) => r[h])
                    .filter(Boolean)
                    .join(", ")}
            </Td>
            <Td>{renderTarget(h, i)}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
