import { redirect } from "next/navigation";
import { currentMember, instanceNeedsSetup } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** `/`: the dashboard (Leads, or Campaigns for a read-only client seat), or the first-run flow while the instance has no user. */
export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await instanceNeedsSetup()) {
    const { token } = await searchParams;
    redirect(typeof token === "string" && token ? `/setup?token=${encodeURIComponent(token)}` : "/login");
  }
  const member = await currentMember();
  redirect(member?.role === "client" ? "/campaigns" : "/leads");
}
