import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SuppressionsSettings } from "@/components/settings/suppressions";
import { currentMember } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Suppressions" };

export default async function SuppressionsPage() {
  const member = await currentMember();
  if (member?.role === "client") redirect("/settings/profile");
  return <SuppressionsSettings />;
}
