import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Mailboxes" };

export default function Page() {
  return <ComingSoon title="Mailboxes" about="Connected sending mailboxes, their daily caps, health and warmup." />;
}
