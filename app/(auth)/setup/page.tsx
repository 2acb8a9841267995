import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { SetupNote } from "@/components/auth/setup-note";
import { instanceNeedsSetup } from "@/lib/auth/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up" };

export default async function SetupPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // Once an owner exists the link is spent; the login form is the way in.
  if (!(await instanceNeedsSetup())) redirect("/login");
  const { token } = await searchParams;
  if (typeof token !== "string" || !token) return <SetupNote />;
  return <SetupForm token={token} />;
}
