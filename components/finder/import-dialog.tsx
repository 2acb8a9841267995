"use client";

import { useQueryClient } from "@tanstack/react-query";
import { client, data } from "@/components/api-client";
import { CsvImportDialog } from "@/components/import/csv-import-dialog";
import { FieldSelect } from "@/components/import/field-select";
import { ImportSummary, SummaryList } from "@/components/import/import-summary";
import { useCsvImport } from "@/components/import/use-csv-import";
import {
  guessPersonMapping,
  PERSON_FIELDS,
  type PersonColumnTarget,
  type PersonItem,
  personMappingProblems,
  rowToPerson,
} from "./csv-mapping";

/** Rows per request: the API takes 10,000, smaller batches keep the progress bar moving. */
const BATCH = 500;
/** How many skipped rows the summary lists; the count is always complete. */
const LIST_MAX = 200;

interface Totals {
  imported: number;
  updated: number;
  skipped: number;
  /** CSV line numbers (the header is line 1) and why each row was skipped. */
  skippedRows: { line: number; reasons: string[] }[];
}

const EMPTY: Totals = { imported: 0, updated: 0, skipped: 0, skippedRows: [] };

/** Finder → Import people (CSV): map the columns onto the directory's person fields, upload in batches, the summary. */
export function FinderImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const imp = useCsvImport<PersonColumnTarget, PersonItem, Totals>({
    batchSize: BATCH,
    emptyTotals: EMPTY,
    guessMapping: guessPersonMapping,
    mappingProblems: personMappingProblems,
    toItem: rowToPerson,
    sendBatch: async (batch, start) => {
      const r = await data(client.POST("/finder/directory/import", { body: { people: batch } }));
      // `row` is 1-based within the batch; line 1 of the file is the header.
      const skipped = r.rejected.map((x) => ({ line: start + x.row + 1, reasons: x.reasons }));
      return (t) => ({
        imported: t.imported + r.imported,
        updated: t.updated + r.updated,
        skipped: t.skipped + r.rejected.length,
        skippedRows: [...t.skippedRows, ...skipped].slice(0, LIST_MAX),
      });
    },
    refresh: () => void queryClient.invalidateQueries({ queryKey: ["finder"] }),
    onClose,
  });

  return (
    <CsvImportDialog
      open={open}
      title="Import people (CSV)"
      flow={imp}
      intro={
        <>
          The first line must name the columns. Each person needs a name or a LinkedIn URL. Someone already in the directory (same LinkedIn
          URL, email, or name and company domain) is updated with the non-empty cells instead of added twice.
        </>
      }
      renderTarget={(h, i) => (
        <FieldSelect header={h} fields={PERSON_FIELDS} value={imp.mapping[i]} onChange={(t) => imp.mapColumn(i, t)} />
      )}
      afterMapping={
        <p className="text-xs text-gray-500">
          Seniority, department and company size are matched to the finder's values (VP, Head of, 51-200, a head count…); rows that do not
          fit are skipped with the reason.
        </p>
      }
      summary={<Summary totals={imp.totals} finished={imp.stage === "done"} />}
    />
  );
}

function Summary({ totals, finished }: { totals: Totals; finished: boolean }) {
  const cells = [
    { label: "Imported", value: totals.imported },
    { label: "Updated", value: totals.updated },
    { label: "Skipped", value: totals.skipped },
  ];
  return (
    <ImportSummary finished={finished} cells={cells}>
      {totals.skippedRows.length > 0 && (
        <SummaryList title="Rows skipped" open>
          {totals.skippedRows.map((r) => (
            <li key={r.line}>
              Line {r.line}: {r.reasons.join("; ")}
            </li>
          ))}
        </SummaryList>
      )}
    </ImportSummary>
  );
}
