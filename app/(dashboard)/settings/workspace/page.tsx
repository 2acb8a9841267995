import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { WorkspaceSettings } from "@/components/settings/workspace";
import { currentMember } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Workspace" };

export default async function WorkspacePage() {
  const member = await currentMember();
  if (!member?.workspace) redirect("/login");
  return <WorkspaceSettings workspaceName={member.workspace.name} />;
}
