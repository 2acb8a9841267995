import type { Metadata } from "next";
import { CampaignPage, type CampaignTab } from "@/components/campaigns/campaign-page";

export const metadata: Metadata = { title: "Campaign" };

const TABS: CampaignTab[] = ["overview", "sequence", "leads", "mailboxes", "schedule", "activity", "settings"];

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ tab?: string | string[] }>;
}) {
  const [{ id }, { tab }] = await Promise.all([params, searchParams]);
  // ?tab= keeps the open tab across reloads and in shared links.
  // Without one the page picks: the Overview, or the Sequence while there is no step to report on.
  return <CampaignPage id={id} initialTab={TABS.find((t) => t === tab)} />;
}
