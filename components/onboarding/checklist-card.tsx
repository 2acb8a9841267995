"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { type OnboardingItem, useOnboarding, useSetDismissed } from "./queries";

/**
 * The pages a new user sees first (where `/` and the sign-in land, and the pages the checklist sends
 * them to): only there does the checklist show, above the page.
 */
export const CHECKLIST_ROUTES: readonly string[] = ["/leads", "/campaigns", "/mailboxes", "/domains"];

/** The set-up checklist above the first pages, until it is dismissed or every item is done. */
export function OnboardingSlot() {
  const pathname = usePathname();
  if (!CHECKLIST_ROUTES.includes(pathname)) return null;
  return <ChecklistCard />;
}

function ChecklistCard() {
  const onboarding = useOnboarding();
  const dismiss = useSetDismissed();
  const o = onboarding.data;
  if (!o || o.dismissed || o.complete) return null;
  const done = o.items.filter((i) => i.done).length;
  const next = o.items.find((i) => !i.done);
  return (
    <section
      aria-labelledby="onboarding-heading"
      data-testid="onboarding"
      className="mb-6 rounded-lg border border-indigo-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id="onboarding-heading" className="text-sm font-semibold text-gray-900">
            Set up your workspace
          </h2>
          <p className="text-xs text-gray-600" data-testid="onboarding-progress">
            {done} of {o.items.length} done. Each step ticks itself once the workspace has it.
          </p>
        </div>
        <Button variant="ghost" size="sm" disabled={dismiss.isPending} onClick={() => dismiss.mutate(true)}>
          Dismiss
        </Button>
      </div>
      <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-gray-100" aria-hidden>
        <div className="h-full rounded-full bg-indigo-600 transition-all" style={{ width: `${(100 * done) / o.items.length}%` }} />
      </div>
      <ol className="mt-3 grid gap-1 sm:grid-cols-2 xl:grid-cols-3">
        {o.items.map((item, i) => (
          <Item key={item.id} item={item} n={i + 1} next={item === next} />
        ))}
      </ol>
      {dismiss.error && (
        <Alert tone="error" className="mt-2">
          Could not dismiss the checklist: {describeError(dismiss.error)}
        </Alert>
      )}
    </section>
  );
}

function Item({ item, n, next }: { item: OnboardingItem; n: number; next: boolean }) {
  return (
    <li data-testid={`onboarding-${item.id}`} data-done={item.done || undefined} className="min-w-0">
      <Link
        href={item.href}
        className={cn("flex items-start gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-gray-50", next && "bg-indigo-50 hover:bg-indigo-100")}
      >
        <span
          aria-hidden
          className={cn(
            "mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
            item.done ? "bg-green-600 text-white" : "border border-gray-300 text-gray-500",
          )}
        >
          {item.done ? "✓" : n}
        </span>
        <span className="min-w-0">
          <span className={cn("block", item.done ? "text-gray-500 line-through" : "font-medium text-gray-900")}>
            {item.label}
            <span className="sr-only">{item.done ? " (done)" : " (to do)"}</span>
          </span>
          {item.detail && <span className="block text-xs text-gray-500">{item.detail}</span>}
        </span>
      </Link>
    </li>
  );
}
