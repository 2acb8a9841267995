import type { Metadata } from "next";
import { CampaignPage, type CampaignTab } from "@/components/campaigns/campaign-page";

export const metadata: Metadata = { title: "Campaign" };

const TABS: CampaignTab[] = ["sequence", "leads", "mailboxes", "settings"];

export default async function Page({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ tab?: string | string[] }> }) {
  const [{ id }, { tab }] = await Promise.all([params, searchParams]);
  // ?tab= keeps the open tab across reloads and in shared links.
  const initialTab = TABS.find((t) => t === tab) ?? "sequence";
  return <CampaignPage id={id} initialTab={initialTab} />;
}
