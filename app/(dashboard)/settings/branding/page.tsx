import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { BrandingSettings } from "@/components/settings/branding";
import { currentMember } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Branding" };

/** Members read the branding and preview the report; owners and admins edit it; a client seat has no settings here. */
export default async function BrandingPage() {
  const member = await currentMember();
  if (member?.role === "client") redirect("/settings/profile");
  return <BrandingSettings />;
}
