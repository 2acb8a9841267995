"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";

/** The freshly created key: the only time the plain key exists outside the caller's hands. */
export function NewKeyBox({ apiKey, onDismiss }: { apiKey: { name: string; key: string }; onDismiss: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "select">();

  async function copy() {
    try {
      await navigator.clipboard.writeText(apiKey.key);
      setCopied("yes");
    } catch {
      // The clipboard API needs a secure context (https or localhost); let the user copy by hand.
      input.current?.select();
      setCopied("select");
    }
  }

  return (
    <div role="status" className="space-y-2 rounded-lg border border-yellow-300 bg-yellow-50 p-4" data-testid="new-api-key">
      <p className="text-sm font-semibold text-yellow-900">Copy your new key “{apiKey.name}” now. It will not be shown again.</p>
      <div className="flex gap-2">
        <input
          ref={input}
          readOnly
          aria-label="New API key"
          value={apiKey.key}
          onFocus={(e) => e.target.select()}
          className="h-9 flex-1 rounded-md border border-yellow-300 bg-white px-2.5 font-mono text-sm"
        />
        <Button variant="secondary" onClick={copy}>
          {copied === "yes" ? "Copied" : "Copy"}
        </Button>
        <Button variant="ghost" onClick={onDismiss}>
          I have saved it
        </Button>
      </div>
      {copied === "select" && <p className="text-xs text-yellow-900">The browser blocked copying; the key is selected — press Ctrl+C.</p>}
    </div>
  );
}
