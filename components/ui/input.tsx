import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { cn } from "./cn";

const FIELD =
  "block h-9 rounded-md border border-gray-300 bg-white px-2.5 text-sm text-gray-900 placeholder:text-gray-400 " +
  "focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/20 focus:outline-none disabled:bg-gray-50";

/** Full width unless the caller sets a width (two width classes would fight by stylesheet order). */
function width(className?: string): string {
  return /(^|\s)w-/.test(className ?? "") ? "" : "w-full";
}

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(FIELD, width(className), className)} {...props} />;
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cn(FIELD, width(className), "pr-8", className)} {...props} />;
}

/**
 * A label above its control, with a hint and the API's messages for this field below it. The hint and
 * messages sit outside the <label> so they do not become part of the control's accessible name.
 */
export function Field({ label, errors, hint, children }: { label: string; errors?: string[]; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label className="block space-y-1">
        <span className="text-sm font-medium text-gray-700">{label}</span>
        {children}
      </label>
      {hint && <p className="text-xs text-gray-500">{hint}</p>}
      {errors?.map((e) => (
        <p key={e} className="text-xs text-red-600">
          {e}
        </p>
      ))}
    </div>
  );
}
