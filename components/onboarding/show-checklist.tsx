"use client";

import { usePathname, useRouter } from "next/navigation";
import { CHECKLIST_ROUTES } from "./checklist-card";
import { useOnboarding, useSetDismissed } from "./queries";

/**
 * "Show setup checklist": brings a dismissed checklist back (while some item is still to do) and, from
 * a page where it does not show, opens the first page where it does.
 */
export function ShowChecklistButton() {
  const onboarding = useOnboarding();
  const undismiss = useSetDismissed();
  const pathname = usePathname();
  const router = useRouter();
  const o = onboarding.data;
  if (!o?.dismissed || o.complete) return null;
  return (
    <button
      type="button"
      className="block text-left text-xs text-indigo-700 hover:underline disabled:text-gray-400"
      disabled={undismiss.isPending}
      onClick={() =>
        undismiss.mutate(false, {
          onSuccess: () => {
            if (!CHECKLIST_ROUTES.includes(pathname)) router.push(CHECKLIST_ROUTES[0]);
          },
        })
      }
    >
      Show setup checklist
    </button>
  );
}
