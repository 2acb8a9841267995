import type { TextareaHTMLAttributes } from "react";
import { cn } from "./cn";

/** A multi-line field styled like Input (components/ui/input.tsx). */
export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <textarea
      className={cn(
        "block w-full rounded-md border border-gray-300 bg-white px-2.5 py-2 text-sm text-gray-900 placeholder:text-gray-400 " +
          "focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/20 focus:outline-none disabled:bg-gray-50",
        className,
      )}
      {...props}
    />
  );
}
