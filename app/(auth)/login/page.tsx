import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { SetupNote } from "@/components/auth/setup-note";
import { currentMember, instanceNeedsSetup } from "@/lib/auth/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Only same-site paths, so that a crafted link cannot bounce a fresh session to another site. */
function safeNext(v: string | string[] | undefined): string {
  const s = typeof v === "string" ? v : "";
  return s.startsWith("/") && !s.startsWith("//") && !s.startsWith("/\\") ? s : "/";
}

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  if (await instanceNeedsSetup()) {
    if (typeof sp.token === "string" && sp.token) redirect(`/setup?token=${encodeURIComponent(sp.token)}`);
    return <SetupNote />;
  }
  const member = await currentMember();
  if (member?.workspace) redirect(safeNext(sp.callbackUrl));
  return <LoginForm next={safeNext(sp.callbackUrl)} initialError={typeof sp.error === "string" ? sp.error : undefined} />;
}
