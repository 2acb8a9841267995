"use client";

import { SignOutButton } from "@/components/shell/sign-out-button";
import { TwoFactorEnrol } from "./security-two-factor";

/**
 * What a member sees instead of any dashboard page while their workspace requires two-factor sign-in
 * and they have not set it up: the enrolment, and why. Once it is on, the page loads as usual.
 */
export function TwoFactorRequiredScreen({ workspaceName }: { workspaceName: string }) {
  return (
    <main className="mx-auto mt-16 max-w-2xl space-y-4 rounded-xl border border-gray-200 bg-white p-6">
      <h1 className="text-lg font-semibold text-gray-900">Set up two-factor sign-in to continue</h1>
      <p className="text-sm text-gray-700">
        The owner of <strong>{workspaceName}</strong> requires every member to sign in with a code from an authenticator app as well as a
        password. Set it up now; the workspace opens as soon as it is on.
      </p>
      <TwoFactorEnrol onEnabled={() => window.location.reload()} />
      <div className="max-w-40 border-t border-gray-200 pt-4">
        <SignOutButton />
      </div>
    </main>
  );
}
