"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

/**
 * Scalar's viewer with its stylesheet (some 280 KB): this module is only loaded by the API reference
 * once the page is on screen, so neither the script nor the stylesheet holds up its first paint.
 */
export default function ScalarViewer({ url, onLoaded }: { url: string; onLoaded: () => void }) {
  return (
    <ApiReferenceReact
      configuration={{
        url,
        // A self-hosted install talks to nobody else: no telemetry, no hosted AI agent, no hosted client.
        telemetry: false,
        agent: { disabled: true },
        hideClientButton: true,
        withDefaultFonts: false,
        hideDarkModeToggle: true,
        forceDarkModeState: "light",
        showDeveloperTools: "never",
        onLoaded,
      }}
    />
  );
}
