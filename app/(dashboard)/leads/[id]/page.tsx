import type { Metadata } from "next";
import { LeadPage } from "@/components/leads/lead-page";

export const metadata: Metadata = { title: "Lead" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <LeadPage id={id} />;
}
