"use client";

import { useQueryClient } from "@tanstack/react-query";
import { data, client } from "@/components/api-client";
import { CsvImportDialog } from "@/components/import/csv-import-dialog";
import { ImportSummary, SummaryList } from "@/components/import/import-summary";
import { useCsvImport } from "@/components/import/use-csv-import";
import { Input, Select } from "@/components/ui/input";
import {
  guessMapping,
  LEAD_FIELDS,
  mappingProblems,
  rowToLead,
  customFieldName,
  type ColumnTarget,
  type LeadFieldKey,
  type LeadInput,
} from "./csv-mapping";

/** POST /leads takes at most 1,000 leads per call. */
const BATCH = 1000;
/** How many invalid rows and warnings the summary lists; the counts are always complete. */
const LIST_MAX = 100;

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

function targetValue(t: ColumnTarget): string {
  return t.kind === "field" ? `field:${t.field}` : t.kind;
}

/** Sends one batch of leads and says how it adds to the running totals (line numbers count the header as line 1). */
async function sendBatch(batch: LeadInput[], start: number): Promise<(t: Totals) => Totals> {
  const r = await data(client.POST("/leads", { body: { leads: batch } }));
  return (t) => ({
    created: t.created + r.created,
    updated: t.updated + r.updated,
    suppressed: t.suppressed + r.suppressed,
    invalid: t.invalid + r.invalid,
    invalidRows: [...t.invalidRows, ...r.invalidEmails.map((x) => ({ line: start + x.index + 2, email: x.email, reason: x.reason }))].slice(
      0,
      LIST_MAX,
    ),
    warnings: [
      ...t.warnings,
      ...r.warnings.map((w) => ({ line: start + w.index + 2, email: w.email, message: `${w.field}: ${w.message}` })),
    ].slice(0, LIST_MAX),
  });
}

/** Where one CSV column goes: a lead field, a custom field (with its name), or nowhere. */
function ColumnTargetPicker({
  header: h,
  target: t,
  onChange,
}: {
  header: string;
  target: ColumnTarget;
  onChange: (next: ColumnTarget) => void;
}) {
  return (
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
          onChange(next);
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
          onChange={(e) => onChange({ kind: "custom", name: e.target.value.replace(/[{}]/g, "") })}
          className="w-40"
        />
      )}
    </div>
  );
}

export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const imp = useCsvImport<ColumnTarget, LeadInput, Totals>({
    batchSize: BATCH,
    emptyTotals: EMPTY_TOTALS,
    guessMapping,
    mappingProblems,
    toItem: rowToLead,
    sendBatch,
    refresh: () => void queryClient.invalidateQueries({ queryKey: ["leads"] }),
    onClose,
  });

  return (
    <CsvImportDialog
      open={open}
      title="Import leads from CSV"
      flow={imp}
      intro={
        <>
          The first line must name the columns. Leads are matched by email: an address that already exists is updated with the non-empty
          cells, and suppressed addresses are skipped.
        </>
      }
      renderTarget={(h, i) => <ColumnTargetPicker header={h} target={imp.mapping[i]} onChange={(next) => imp.mapColumn(i, next)} />}
      afterMapping={<p className="text-xs text-gray-500">Custom fields become template variables, e.g. {"{{industry}}"}.</p>}
      summary={<Summary totals={imp.totals} finished={imp.stage === "done"} />}
    />
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
    <ImportSummary finished={finished} cells={cells}>
      {totals.invalidRows.length > 0 && (
        <SummaryList title="Rows not imported" open>
          {totals.invalidRows.map((r) => (
            <li key={r.line}>
              Line {r.line}: <span className="font-mono">{r.email || "(no email)"}</span> — {r.reason}
            </li>
          ))}
        </SummaryList>
      )}
      {totals.warnings.length > 0 && (
        <SummaryList title={<>Warnings ({totals.warnings.length})</>}>
          {totals.warnings.map((w, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only report, built once and never reordered; a line can carry several entries
            <li key={i}>
              Line {w.line} ({w.email}): {w.message}
            </li>
          ))}
        </SummaryList>
      )}
    </ImportSummary>
  );
}
