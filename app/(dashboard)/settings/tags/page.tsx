import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { TagsSettings } from "@/components/settings/tags";
import { currentMember } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Tags" };

export default async function TagsPage() {
  const member = await currentMember();
  if (member?.role === "client") redirect("/settings/profile");
  return <TagsSettings />;
}
