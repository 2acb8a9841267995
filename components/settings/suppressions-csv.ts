import Papa from "papaparse";

/** A suppression CSV as read: its rows of cells, whether the first row names the columns, and the column to import. */
export interface SuppressionCsv {
  fileName: string;
  rows: string[][];
  hasHeader: boolean;
  /** Column names (the header's, or "Column 1", "Column 2", … without one). */
  columns: string[];
  column: number;
}

/** Something that reads as an address or a domain, not a column name. */
const looksLikeValue = (cell: string) => /[@.]/.test(cell.trim());

/**
 * Whether the first row is a header and which column holds the addresses: a first row with no cell
 * that looks like an address or a domain names the columns (the one called email, domain, address or
 * value is taken); without a header, the first column whose first cell looks like one.
 */
export function readSuppressionRows(fileName: string, rows: string[][]): SuppressionCsv {
  const first = rows[0] ?? [];
  const width = Math.max(1, ...rows.slice(0, 50).map((r) => r.length));
  const hasHeader = first.length > 0 && !first.some(looksLikeValue);
  const columns = Array.from({ length: width }, (_, i) => (hasHeader ? first[i]?.trim() || `Column ${i + 1}` : `Column ${i + 1}`));
  let column = 0;
  if (hasHeader) {
    const named = columns.findIndex((c) => /e-?mail|domain|address|value/i.test(c));
    if (named >= 0) column = named;
  } else {
    const found = first.findIndex(looksLikeValue);
    if (found >= 0) column = found;
  }
  return { fileName, rows: hasHeader ? rows.slice(1) : rows, hasHeader, columns, column };
}

/** The entries to send: one per data row, the chosen column's cell, with the row's number in the file (from 1). */
export function entriesOf(csv: SuppressionCsv, column: number): { value: string; line: number }[] {
  const offset = csv.hasHeader ? 2 : 1;
  return csv.rows.map((r, i) => ({ value: (r[column] ?? "").trim(), line: i + offset }));
}

/** Reads a file with papaparse (any delimiter it detects, blank lines skipped); broken quoting is an error. */
export function parseSuppressionFile(file: File, onParsed: (csv: SuppressionCsv) => void, onError: (message: string) => void): void {
  Papa.parse<string[]>(file, {
    header: false,
    skipEmptyLines: "greedy",
    complete: (res) => {
      const fatal = res.errors.find((e) => e.type === "Quotes");
      if (fatal) return onError(`Row ${(fatal.row ?? 0) + 1}: ${fatal.message}`);
      const csv = readSuppressionRows(file.name, res.data);
      if (csv.rows.length === 0) return onError("The file has no rows to import.");
      onParsed(csv);
    },
    error: (err) => onError(`Could not read the file: ${err.message}`),
  });
}
