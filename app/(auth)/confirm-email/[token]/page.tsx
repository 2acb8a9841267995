import type { Metadata } from "next";
import { ConfirmEmailButton } from "@/components/auth/confirm-email-button";
import { LinkGone } from "@/components/auth/link-gone";
import { linkDetails } from "@/lib/auth/profile";
import { serverDb } from "@/lib/auth/session";
import { currentClock } from "@/lib/clock";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Confirm your new email" };

/** Opening the link shows what changes; the button makes it so (a mail scanner fetching the link changes nothing). */
export default async function ConfirmEmailPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await linkDetails(await serverDb(), "email_change", token, currentClock().now());
  if (link.state === "gone" || !link.newEmail) {
    return (
      <LinkGone
        title="This confirmation link cannot be used"
        reason="It has expired (links work for 24 hours), was already used, or is not valid. Start the change again under Settings → Profile."
      />
    );
  }
  return <ConfirmEmailButton token={token} from={link.email} to={link.newEmail} />;
}
