import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Inbox" };

export default function Page() {
  return <ComingSoon title="Inbox" about="Replies from every mailbox in one place." />;
}
