import type { Metadata } from "next";
import { Suspense } from "react";
import { MailboxesView } from "@/components/mailboxes/mailboxes-view";
import { OAuthResultNotice } from "@/components/mailboxes/oauth-connect";

export const metadata: Metadata = { title: "Mailboxes" };

export default function MailboxesPage() {
  return (
    <>
      {/* useSearchParams needs a Suspense boundary in a statically rendered page. */}
      <Suspense>
        <OAuthResultNotice />
      </Suspense>
      <MailboxesView />
    </>
  );
}
