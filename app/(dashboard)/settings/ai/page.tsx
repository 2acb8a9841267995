import type { Metadata } from "next";
import { AiSettingsPage } from "@/components/settings/ai-settings";

export const metadata: Metadata = { title: "AI" };

export default function AiPage() {
  return <AiSettingsPage />;
}
