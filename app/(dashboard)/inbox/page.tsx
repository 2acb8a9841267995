import type { Metadata } from "next";
import { InboxView } from "@/components/inbox/inbox-view";

export const metadata: Metadata = { title: "Inbox" };

type Params = { lead?: string | string[]; view?: string | string[]; message?: string | string[] };

export default async function InboxPage({ searchParams }: { searchParams: Promise<Params> }) {
  const { lead, view, message } = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === "string" && v ? v : undefined);
  return (
    <InboxView
      initialLeadId={one(lead)}
      initialView={view === "unmatched" ? "unmatched" : "conversations"}
      initialMessageId={one(message)}
    />
  );
}
