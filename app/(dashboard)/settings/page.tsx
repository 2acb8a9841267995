import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { WarmupPresets } from "@/components/settings/warmup-presets";

type Props = { searchParams: Promise<{ section?: string | string[] }> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  return (await searchParams).section === "warmup-presets" ? { title: "Warmup presets" } : {};
}

/**
 * Settings: API keys (its own page, where /settings leads) and, at ?section=warmup-presets, the warmup
 * presets per provider class.
 */
export default async function SettingsPage({ searchParams }: Props) {
  if ((await searchParams).section === "warmup-presets") return <WarmupPresets />;
  redirect("/settings/api-keys");
}
