import type { ReactNode } from "react";
import { Td, Th } from "./table";
import type { Selection } from "./use-selection";

/** The header cell that checks every row on the page (see useSelection); `label` names it where the table has no pages. */
export function SelectAllTh({
  selection,
  label = "Select all on this page",
}: {
  selection: Pick<Selection, "allSelected" | "toggleAll">;
  label?: string;
}) {
  return (
    <Th className="w-8">
      <input type="checkbox" aria-label={label} checked={selection.allSelected} onChange={() => selection.toggleAll()} />
    </Th>
  );
}

/** A row's checkbox cell, named "Select <label>". */
export function SelectTd({ label, checked, onToggle }: { label: string; checked: boolean; onToggle: () => void }) {
  return (
    <Td>
      <input type="checkbox" aria-label={`Select ${label}`} checked={checked} onChange={onToggle} />
    </Td>
  );
}

/** A table's last rows: `empty` (the message) once it loaded with no rows, and "Loading…" while it loads. */
export function TableStatusRows({
  columns,
  empty,
  loading,
  children,
}: {
  columns: number;
  empty: boolean;
  loading: boolean;
  children: ReactNode;
}) {
  return (
    <>
      {empty && (
        <tr>
          <td colSpan={columns} className="px-3 py-10 text-center text-sm text-gray-600">
            {children}
          </td>
        </tr>
      )}
      {loading && (
        <tr>
          <td colSpan={columns} className="px-3 py-10 text-center text-sm text-gray-500">
            Loading…
          </td>
        </tr>
      )}
    </>
  );
}
