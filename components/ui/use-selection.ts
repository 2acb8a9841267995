"use client";

import { useEffect, useState } from "react";

/**
 * Which rows of a table page are checked, by id. The selection is cleared whenever `scope` changes (an
 * object such as the paging or the filters): a selection only makes sense for the rows on screen.
 */
export function useSelection(rows: readonly { id: string }[], scope: unknown) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new scope (filter, page) is exactly what clears the selection
  useEffect(() => setSelected(new Set()), [scope]);

  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));

  return {
    /** How many rows are checked. */
    size: selected.size,
    /** The checked ids, in the order they were checked. */
    ids: [...selected],
    has: (id: string) => selected.has(id),
    /** Every row on the page is checked (and there is one). */
    allSelected,
    toggle(id: string) {
      setSelected((s) => {
        const n = new Set(s);
        if (n.has(id)) n.delete(id);
        else n.add(id);
        return n;
      });
    },
    /** Checks every row on the page, or none when all are checked. */
    toggleAll: () => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id))),
    clear: () => setSelected(new Set()),
  };
}

export type Selection = ReturnType<typeof useSelection>;
