"use client";

import { useRef, useState, type ReactNode } from "react";
import { Button } from "./button";

/**
 * A secret the server shows once (a signing secret, a key): a read-only box with a Copy button and a
 * warning above it. When the browser refuses the clipboard (no secure context) the text is selected
 * for a manual copy instead.
 */
export function SecretBox({ label, value, warning, children }: { label: string; value: string; warning: ReactNode; children?: ReactNode }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "select">();

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      input.current?.select();
      setCopied("select");
    }
  }

  return (
    <div className="space-y-2 rounded-lg border border-yellow-300 bg-yellow-50 p-4">
      <p role="status" className="text-sm font-semibold text-yellow-900">
        {warning}
      </p>
      <div className="flex gap-2">
        <input
          ref={input}
          readOnly
          aria-label={label}
          value={value}
          onFocus={(e) => e.target.select()}
          className="h-9 min-w-0 flex-1 rounded-md border border-yellow-300 bg-white px-2.5 font-mono text-sm"
        />
        <Button variant="secondary" onClick={copy}>
          {copied === "yes" ? "Copied" : "Copy"}
        </Button>
      </div>
      {copied === "select" && <p className="text-xs text-yellow-900">The browser blocked copying; the text is selected — press Ctrl+C.</p>}
      {children}
    </div>
  );
}
