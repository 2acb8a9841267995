import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Outreach", template: "%s · Outreach" },
  description: "Open-source cold-email outreach",
};

/**
 * Reads the request's headers so that every page renders per request: the Content-Security-Policy
 * proxy.ts sets carries a fresh nonce, which Next.js puts on its scripts while rendering. A page
 * prerendered at build time would carry scripts without it, and the browser would refuse them.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await headers();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
