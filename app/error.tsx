"use client";

import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { ButtonLink, StatusPage } from "@/components/shell/status-page";

/** A page that failed while rendering: say so, offer to try again, and a way back. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <StatusPage
      status="Error"
      title="Something went wrong on this page"
      actions={
        <>
          <Button onClick={reset}>Try again</Button>
          <ButtonLink href="/" secondary>
            Back to the dashboard
          </ButtonLink>
        </>
      }
    >
      <p>The page could not be shown. Trying again often helps; if it keeps failing, the server log has the details.</p>
      {error.digest && (
        <p className="text-xs text-gray-500">
          Reference <code className="rounded bg-gray-100 px-1">{error.digest}</code> (the same in the server log)
        </p>
      )}
    </StatusPage>
  );
}
