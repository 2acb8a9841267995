"use client";

import "./globals.css";

/**
 * The last resort, when the root layout itself failed: it replaces the whole document, so it brings
 * its own html and body and plain links (no app state can be trusted here).
 */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <main className="flex min-h-screen items-center justify-center px-4 py-12">
          <div className="w-full max-w-md text-center">
            <p className="text-2xl font-semibold tracking-tight text-indigo-700">Outreach</p>
            <div className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
              <p className="text-5xl font-semibold tracking-tight text-indigo-600">Error</p>
              <h1 className="mt-3 text-lg font-semibold text-gray-900">Outreach could not show this page</h1>
              <p className="mt-2 text-sm text-gray-600">
                Try again in a moment; if it keeps failing, the server log has the details
                {error.digest ? ` (reference ${error.digest})` : ""}.
              </p>
              <div className="mt-6 flex justify-center gap-2">
                <button
                  type="button"
                  onClick={reset}
                  className="inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white hover:bg-indigo-500"
                >
                  Try again
                </button>
                {/* A full load, not a client navigation: the app's own state is what failed. */}
                <a
                  href="/"
                  className="inline-flex h-9 items-center rounded-md border border-gray-300 bg-white px-3.5 text-sm font-medium text-gray-800 hover:bg-gray-50"
                >
                  Back to the dashboard
                </a>
              </div>
            </div>
          </div>
        </main>
      </body>
    </html>
  );
}
