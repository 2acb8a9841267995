import type { Metadata } from "next";
import { InboxView } from "@/components/inbox/inbox-view";

export const metadata: Metadata = { title: "Inbox" };

export default async function InboxPage({ searchParams }: { searchParams: Promise<{ lead?: string | string[] }> }) {
  const { lead } = await searchParams;
  return <InboxView initialLeadId={typeof lead === "string" && lead ? lead : undefined} />;
}
