import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInvitation } from "@/components/auth/accept-invitation";
import { LinkGone } from "@/components/auth/link-gone";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { Alert } from "@/components/ui/alert";
import { invitationDetails } from "@/lib/auth/invitations";
import { ROLE_LABEL } from "@/lib/roles";
import { currentMember, serverDb } from "@/lib/auth/session";
import { currentClock } from "@/lib/clock";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Invitation" };

/**
 * An invitation's page: which workspace, which role, who invited and until when; then the way to
 * accept that fits — the signed-in invitee accepts with one click, a new address makes its account,
 * an existing account signs in first, then accepts. Opening the page spends nothing.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = await invitationDetails(await serverDb(), token, currentClock().now());
  if (invite.state === "gone") return <LinkGone title="This invitation cannot be used" reason={invite.reason} />;
  const member = await currentMember();
  const signedInAs = member?.user.email;
  const inviter = invite.invitedBy ? invite.invitedBy.name || invite.invitedBy.email : "A workspace admin";
  const isInvitee = signedInAs?.toLowerCase() === invite.email.toLowerCase();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-gray-900">Join {invite.workspaceName}</h1>
        <p className="text-sm text-gray-600">
          {inviter} invited <span className="font-medium text-gray-900">{invite.email}</span> as {ROLE_LABEL[invite.role]}. The link works
          once, until {invite.expiresAt.toUTCString()}.
        </p>
      </div>
      {signedInAs && !isInvitee ? (
        <div className="space-y-3">
          <Alert tone="warning">
            You are signed in as {signedInAs}, but this invitation is for {invite.email}. Sign out, then open the link again.
          </Alert>
          <SignOutButton />
        </div>
      ) : !isInvitee && invite.accountExists ? (
        // The account's password is checked by the sign-in alone (its limits, its second factor).
        <p className="text-sm text-gray-700">
          {invite.email} has an account already.{" "}
          <Link
            className="font-medium text-indigo-700 hover:underline"
            href={`/login?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`}
          >
            Sign in to accept
          </Link>
          .
        </p>
      ) : (
        <AcceptInvitation token={token} email={invite.email} workspaceId={invite.workspaceId} mode={isInvitee ? "signed-in" : "new"} />
      )}
    </div>
  );
}
