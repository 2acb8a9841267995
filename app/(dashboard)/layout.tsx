import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { OnboardingSlot } from "@/components/onboarding/checklist-card";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { Sidebar } from "@/components/shell/sidebar";
import { MemberProvider } from "@/components/shell/member-context";
import { RoleGate } from "@/components/shell/role-gate";
import { TwoFactorRequiredScreen } from "@/components/settings/security-enrol-screen";
import { currentMember } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const member = await currentMember();
  if (!member) redirect("/login");
  if (!member.workspace) {
    // Not a redirect: /login would send a signed-in user straight back here.
    return (
      <main className="mx-auto mt-24 max-w-md space-y-4 rounded-xl border border-gray-200 bg-white p-6 text-sm">
        <h1 className="text-lg font-semibold">No workspace</h1>
        <p className="text-gray-700">
          {member.user.email} is not a member of any workspace. Ask a workspace owner to add you, or create one with{" "}
          <code className="rounded bg-gray-100 px-1">npx outreach setup</code>.
        </p>
        <SignOutButton />
      </main>
    );
  }
  // The workspace requires two-factor sign-in and this member has not set it up: enrolment first.
  if (member.mustEnrolTwoFactor) return <TwoFactorRequiredScreen workspaceName={member.workspace.name} />;
  const info = {
    userId: member.user.id,
    email: member.user.email,
    name: member.user.name,
    role: member.workspace.role,
    workspaceId: member.workspace.id,
  };
  return (
    <MemberProvider member={info}>
      {/* A column beside the page from md up; below, the sidebar is a top bar with a menu (components/shell/sidebar.tsx). */}
      <div className="flex min-h-screen flex-col md:flex-row">
        <Sidebar user={member.user} workspaces={member.workspaces} currentWorkspaceId={member.workspace.id} />
        {/* Keyed by workspace: switching starts every page's client state (filters, paging) afresh. */}
        <main key={member.workspace.id} className="min-w-0 flex-1 px-4 py-4 md:px-8 md:py-6">
          <RoleGate>
            <OnboardingSlot />
            {children}
          </RoleGate>
        </main>
      </div>
    </MemberProvider>
  );
}
