import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { TrackingDomainsSettings } from "@/components/settings/tracking-domains";
import { currentMember } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Tracking domains" };

/** Members read the workspace's tracking domains; owners and admins add, verify, make default and delete them; a client seat has none. */
export default async function TrackingDomainsPage() {
  const member = await currentMember();
  if (member?.role === "client") redirect("/settings/profile");
  return <TrackingDomainsSettings />;
}
