"use client";

import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { prepareHtml } from "./sanitize";

/** A first guess at the frame's height (a sandboxed frame cannot be measured from outside); the user can drag it taller. */
function guessHeight(text: string | null, html: string): number {
  const lines = text ? text.split("\n").length + Math.ceil(text.length / 90) : Math.ceil(html.replace(/<[^>]*>/g, "").length / 80) + 4;
  return Math.min(520, Math.max(120, lines * 21 + 32));
}

/** Plain text as written, whitespace kept. */
export function TextBody({ text, testId }: { text: string; testId?: string }) {
  return (
    <div data-testid={testId} className="text-sm break-words whitespace-pre-wrap text-gray-900">
      {text.trim() ? text : <span className="text-gray-500 italic">(no text)</span>}
    </div>
  );
}

/**
 * A received message: its HTML cleaned and shown in a sandboxed frame with remote images blocked
 * until "Show images", or its plain text when it has no HTML (or the user prefers the text).
 */
export function InboundBody({ html, text, label }: { html: string | null; text: string | null; label: string }) {
  const [showImages, setShowImages] = useState(false);
  const [asText, setAsText] = useState(false);
  const prepared = useMemo(() => (html && typeof DOMParser !== "undefined" ? prepareHtml(html, { showImages }) : null), [html, showImages]);

  if (!prepared || asText) {
    return (
      <div className="space-y-2">
        <TextBody text={text ?? ""} testId="message-text" />
        {prepared && (
          <Button variant="ghost" size="sm" onClick={() => setAsText(false)}>
            Show HTML
          </Button>
        )}
      </div>
    );
  }
  return (
    <div className="space-y-2">
      {(prepared.blockedImages > 0 || showImages) && (
        <div className="flex items-center justify-between gap-2 rounded-md bg-gray-50 px-2 py-1 text-xs text-gray-600">
          {showImages ? (
            <span>Remote images are shown: their senders can see that this message was opened.</span>
          ) : (
            <span data-testid="blocked-images">
              {prepared.blockedImages === 1 ? "1 remote image was" : `${prepared.blockedImages} remote images were`} not loaded, so the
              sender cannot tell that you opened this.
            </span>
          )}
          {!showImages && (
            <Button variant="secondary" size="sm" onClick={() => setShowImages(true)}>
              Show images
            </Button>
          )}
        </div>
      )}
      <div className="resize-y overflow-hidden rounded-md border border-gray-200" style={{ height: guessHeight(text, html ?? "") }}>
        {/* sandbox="": no scripts, forms, popups or navigation; the srcdoc also carries its own CSP. */}
        <iframe title={label} sandbox="" referrerPolicy="no-referrer" srcDoc={prepared.srcdoc} className="block h-full w-full bg-white" />
      </div>
      {text?.trim() && (
        <Button variant="ghost" size="sm" onClick={() => setAsText(true)}>
          Show plain text
        </Button>
      )}
    </div>
  );
}
