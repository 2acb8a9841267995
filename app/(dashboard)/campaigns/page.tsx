import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Campaigns" };

export default function Page() {
  return <ComingSoon title="Campaigns" about="Sequences with follow-ups, sending windows and mailbox pools." />;
}
