import type { ReactNode } from "react";
import { Alert } from "./alert";

/** A success message above a list, with a ✕ that dismisses it; `testId` wraps the text in a span. */
export function Notice({ children, onDismiss, testId }: { children: ReactNode; onDismiss: () => void; testId?: string }) {
  return (
    <Alert tone="success" className="flex justify-between gap-2">
      {testId ? <span data-testid={testId}>{children}</span> : children}
      <button type="button" onClick={onDismiss} aria-label="Dismiss">
        ✕
      </button>
    </Alert>
  );
}
