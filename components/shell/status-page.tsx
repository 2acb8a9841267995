import Link from "next/link";
import type { ReactNode } from "react";

/**
 * The frame of the 404 and error pages: the product's name, a big status, what happened and a way back.
 * A server component with no data of its own, so it renders even when the app around it failed.
 */
export function StatusPage({
  status,
  title,
  children,
  actions,
}: {
  status: string;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12" data-testid="status-page">
      <div className="w-full max-w-md text-center">
        <Link href="/" className="text-2xl font-semibold tracking-tight text-indigo-700">
          Outreach
        </Link>
        <div className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
          <p className="text-5xl font-semibold tracking-tight text-indigo-600 tabular-nums">{status}</p>
          <h1 className="mt-3 text-lg font-semibold text-gray-900">{title}</h1>
          <div className="mt-2 space-y-2 text-sm text-gray-600">{children}</div>
          <div className="mt-6 flex flex-wrap justify-center gap-2">{actions}</div>
        </div>
      </div>
    </main>
  );
}

/** A link styled as the primary or secondary button (components/ui/button.tsx). */
export function ButtonLink({ href, children, secondary }: { href: string; children: ReactNode; secondary?: boolean }) {
  return (
    <Link
      href={href}
      className={
        secondary
          ? "inline-flex h-9 items-center rounded-md border border-gray-300 bg-white px-3.5 text-sm font-medium text-gray-800 hover:bg-gray-50"
          : "inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white hover:bg-indigo-500"
      }
    >
      {children}
    </Link>
  );
}
