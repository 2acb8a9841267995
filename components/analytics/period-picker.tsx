"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { PeriodPick } from "./queries";

const PRESETS = [7, 30, 90, 365];
const today = () => new Date().toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

/**
 * Last 7/30/90/365 days, or a custom range of UTC dates; the end date is included here and sent as
 * the next day (the API's `to` is exclusive).
 */
export function PeriodPicker({ value, onChange }: { value: PeriodPick; onChange: (p: PeriodPick) => void }) {
  const [from, setFrom] = useState(() => new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10));
  const [to, setTo] = useState(today);
  const custom = !("days" in value);
  const nextDay = (d: string) => new Date(new Date(`${d}T00:00:00Z`).getTime() + DAY_MS).toISOString().slice(0, 10);
  return (
    <div className="flex flex-wrap items-end gap-2" data-testid="period-picker">
      {PRESETS.map((d) => (
        <Button
          key={d}
          size="sm"
          variant={"days" in value && value.days === d ? "primary" : "secondary"}
          onClick={() => onChange({ days: d })}
          aria-pressed={"days" in value && value.days === d}
        >
          {d} days
        </Button>
      ))}
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (from && to && from <= to) onChange({ from, to: nextDay(to) });
        }}
      >
        <label className="text-xs text-gray-600">
          From
          <Input type="date" value={from} onChange={(e) => setFrom(e.target.value)} aria-label="From date" />
        </label>
        <label className="text-xs text-gray-600">
          To
          <Input type="date" value={to} onChange={(e) => setTo(e.target.value)} aria-label="To date" />
        </label>
        <Button size="sm" variant={custom ? "primary" : "secondary"} type="submit" disabled={!from || !to || from > to}>
          Apply
        </Button>
      </form>
    </div>
  );
}
