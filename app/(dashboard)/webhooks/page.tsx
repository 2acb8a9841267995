import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Webhooks" };

export default function Page() {
  return <ComingSoon title="Webhooks" about="Signed event deliveries to your own endpoints." />;
}
