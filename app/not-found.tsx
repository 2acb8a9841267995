import type { Metadata } from "next";
import { ButtonLink, StatusPage } from "@/components/shell/status-page";

export const metadata: Metadata = { title: "Page not found" };

/** Any URL that no page answers (answered with status 404). */
export default function NotFound() {
  return (
    <StatusPage
      status="404"
      title="This page does not exist"
      actions={
        <>
          <ButtonLink href="/">Back to the dashboard</ButtonLink>
          <ButtonLink href="/campaigns" secondary>
            Campaigns
          </ButtonLink>
        </>
      }
    >
      <p>The address may be mistyped, or what it pointed to was deleted or moved.</p>
    </StatusPage>
  );
}
