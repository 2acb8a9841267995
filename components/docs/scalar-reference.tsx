"use client";

import dynamic from "next/dynamic";
import { type ReactNode, useState } from "react";

/**
 * Scalar's viewer (maintained upstream, MIT) instead of a hand-written one: it renders every schema,
 * example and error of the OpenAPI document. Loaded in the browser only — it mounts a Vue app into a
 * div, so there is nothing to render on the server, and the page's other readers never load it.
 * Its 0.8 line: 0.9 and later declare Node 22 (with some forty dependencies), and `npm install` on
 * Node 20, which this project supports, warned for each of them.
 */
const ScalarViewer = dynamic(() => import("./scalar-viewer"), { ssr: false });

/**
 * The viewer of the document at `url`, with `fallback` (the server-rendered operation list) on screen
 * until it has loaded it: the page is readable at its first paint instead of blank while the script,
 * its stylesheet and the document arrive.
 */
export function ScalarReference({ url, fallback }: { url: string; fallback: ReactNode }) {
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      {!loaded && (
        <div aria-busy="true">
          <p className="mb-3 text-sm text-gray-500" data-testid="api-reference-loading">
            Loading the full reference…
          </p>
          {fallback}
        </div>
      )}
      <div data-testid="api-reference" data-loaded={loaded || undefined}>
        <ScalarViewer url={url} onLoaded={() => setLoaded(true)} />
      </div>
    </>
  );
}
