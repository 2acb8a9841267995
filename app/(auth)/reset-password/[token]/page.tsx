import type { Metadata } from "next";
import { LinkGone } from "@/components/auth/link-gone";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { linkDetails } from "@/lib/auth/profile";
import { serverDb } from "@/lib/auth/session";
import { currentClock } from "@/lib/clock";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose a new password" };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await linkDetails(await serverDb(), "password_reset", token, currentClock().now());
  if (link.state === "gone") {
    return (
      <LinkGone
        title="This reset link cannot be used"
        reason="It has expired (links work for one hour), was already used, or is not valid. Ask for a new one on the sign-in page."
      />
    );
  }
  return <ResetPasswordForm token={token} email={link.email} />;
}
