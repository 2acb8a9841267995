import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Domains" };

export default function Page() {
  return <ComingSoon title="Domains" about="SPF, DKIM, DMARC, MX and blacklist checks for your sending domains." />;
}
