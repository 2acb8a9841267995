import type { ButtonHTMLAttributes, ReactNode } from "react";
import { cn } from "./cn";

/**
 * A filter chip: a toggle button (aria-pressed) with an optional count after its label. The caller's
 * label is the accessible name; the count is read after it ("Interested 3").
 */
export function Chip({
  pressed,
  count,
  children,
  className,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "aria-pressed"> & { pressed: boolean; count?: number; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      className={cn(
        "inline-flex h-7 items-center gap-1.5 rounded-full border px-2.5 text-xs font-medium whitespace-nowrap transition-colors focus-visible:outline-2 " +
          "focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-60",
        pressed ? "border-indigo-600 bg-indigo-600 text-white" : "border-gray-300 bg-white text-gray-700 hover:bg-gray-50",
        className,
      )}
      {...props}
    >
      {children}
      {count !== undefined && (
        <span className={cn("rounded-full px-1.5 tabular-nums", pressed ? "bg-white/20" : "bg-gray-100 text-gray-600")}>
          {count.toLocaleString()}
        </span>
      )}
    </button>
  );
}
