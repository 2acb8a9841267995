import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { WarmupPresets } from "@/components/settings/warmup-presets";
import { currentMember } from "@/lib/auth/session";

type Props = { searchParams: Promise<{ section?: string | string[] }> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  return (await searchParams).section === "warmup-presets" ? { title: "Warmup presets" } : {};
}

/**
 * Settings: API keys (its own page, where /settings leads a member) and, at ?section=warmup-presets, the
 * warmup presets per provider class. A client seat has neither: /settings leads it to its profile.
 */
export default async function SettingsPage({ searchParams }: Props) {
  const member = await currentMember();
  if (member?.role === "client") redirect("/settings/profile");
  if ((await searchParams).section === "warmup-presets") return <WarmupPresets />;
  redirect("/settings/api-keys");
}
