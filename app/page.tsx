import { redirect } from "next/navigation";
import { instanceNeedsSetup } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** `/`: the dashboard, or the first-run flow while the instance has no user. */
export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await instanceNeedsSetup()) {
    const { token } = await searchParams;
    redirect(typeof token === "string" && token ? `/setup?token=${encodeURIComponent(token)}` : "/login");
  }
  redirect("/leads");
}
