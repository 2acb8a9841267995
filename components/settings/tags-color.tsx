"use client";

import { useId } from "react";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";

/** The small palette offered for tags (Tailwind's 500/600 shades): any other #rrggbb can be typed. */
export const TAG_PALETTE = [
  { hex: "#ef4444", name: "Red" },
  { hex: "#f97316", name: "Orange" },
  { hex: "#eab308", name: "Yellow" },
  { hex: "#22c55e", name: "Green" },
  { hex: "#14b8a6", name: "Teal" },
  { hex: "#3b82f6", name: "Blue" },
  { hex: "#6366f1", name: "Indigo" },
  { hex: "#a855f7", name: "Purple" },
  { hex: "#ec4899", name: "Pink" },
  { hex: "#6b7280", name: "Gray" },
] as const;

export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** Black or white, whichever reads better on `hex` (relative luminance, WCAG's formula). */
export function textOn(hex: string | null | undefined): string {
  if (!hex || !HEX_COLOUR.test(hex)) return "#111827";
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? "#111827" : "#ffffff";
}

/** A tag as a coloured chip (gray when it has no colour, or while a typed colour is incomplete). */
export function TagSwatch({ name, color }: { name: string; color: string | null }) {
  const bg = color && HEX_COLOUR.test(color) ? color : "#e5e7eb";
  return (
    <span
      className="inline-flex max-w-full items-center truncate rounded-full px-2 py-0.5 text-xs font-medium"
      style={{ backgroundColor: bg, color: textOn(bg) }}
    >
      {name}
    </span>
  );
}

/**
 * A colour: palette buttons (optional), the browser's colour picker and the hex text, all showing the
 * same value. The text may hold an unfinished value; the API says what is wrong with it on save.
 */
export function ColorPicker({
  label,
  value,
  onChange,
  palette,
  disabled,
  allowNone,
  errors,
}: {
  label: string;
  value: string;
  onChange: (hex: string) => void;
  palette?: readonly { hex: string; name: string }[];
  disabled?: boolean;
  /** Offer "None" (an empty value: no colour). */
  allowNone?: boolean;
  errors?: string[];
}) {
  const id = useId();
  const valid = HEX_COLOUR.test(value);
  return (
    <fieldset className="min-w-0 space-y-1.5" disabled={disabled}>
      <legend className="text-sm font-medium text-gray-700">{label}</legend>
      {palette && (
        <div className="flex flex-wrap gap-1.5">
          {allowNone && (
            <button
              type="button"
              aria-label={`${label}: none`}
              aria-pressed={value === ""}
              onClick={() => onChange("")}
              className={cn(
                "h-6 rounded-full border border-gray-300 bg-white px-2 text-xs text-gray-600",
                value === "" && "ring-2 ring-indigo-600 ring-offset-1",
              )}
            >
              None
            </button>
          )}
          {palette.map((p) => (
            <button
              key={p.hex}
              type="button"
              title={p.name}
              aria-label={`${label}: ${p.name}`}
              aria-pressed={value.toLowerCase() === p.hex}
              onClick={() => onChange(p.hex)}
              className={cn("h-6 w-6 rounded-full", value.toLowerCase() === p.hex && "ring-2 ring-indigo-600 ring-offset-1")}
              style={{ backgroundColor: p.hex }}
            />
          ))}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="color"
          aria-label={`${label} picker`}
          value={valid ? value.toLowerCase() : "#000000"}
          onChange={(e) => onChange(e.target.value)}
          className="h-9 w-10 shrink-0 cursor-pointer rounded border border-gray-300 bg-white p-0.5 disabled:cursor-not-allowed"
        />
        <Input
          id={id}
          aria-label={`${label} hex`}
          placeholder={allowNone ? "none" : "#4f46e5"}
          maxLength={7}
          value={value}
          onChange={(e) => onChange(e.target.value.trim())}
          aria-invalid={errors?.length ? true : undefined}
          className="w-28 font-mono"
        />
      </div>
      {errors?.map((e) => (
        <p key={e} className="text-xs text-red-600">
          {e}
        </p>
      ))}
    </fieldset>
  );
}
