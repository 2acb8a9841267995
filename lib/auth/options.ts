import type { DefaultSession, NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb, resolveDatabaseUrl } from "../../db/client";
import { hit } from "../rate-limit";
import { rateLimits } from "../env";
import { sessionSecret } from "./secrets";
import { checkCredentials } from "./users";
import { openSession, revokeSession } from "./sessions";
import { currentClock } from "../clock";

declare module "next-auth" {
  interface Session {
    user: { id: string } & DefaultSession["user"];
  }
}

// next-auth v4 builds its own absolute URLs (redirects, cookie security) from NEXTAUTH_URL. When the
// operator has not set it, APP_URL is the public base; without either, trust the Host header so that
// an instance reached as http://my-box:3000 still works.
if (!process.env.NEXTAUTH_URL) {
  if (process.env.APP_URL) process.env.NEXTAUTH_URL = process.env.APP_URL;
  else process.env.AUTH_TRUST_HOST ??= "1";
}

function ipOf(headers: Record<string, unknown> | undefined): string {
  const fwd = headers?.["x-forwarded-for"];
  if (typeof fwd === "string" && fwd) return fwd.split(",")[0].trim();
  const real = headers?.["x-real-ip"];
  return typeof real === "string" && real ? real : "local";
}

/**
 * Counts one sign-in or sign-up attempt from an IP (spec 8: login and signup have a tighter limit of
 * their own). Returns the seconds to wait when the limit is reached.
 */
export async function authAttempt(ip: string): Promise<{ allowed: true } | { allowed: false; retryAfter: number }> {
  if (!rateLimits.enabled) return { allowed: true };
  const s = await hit(`auth:ip:${ip}`, rateLimits.authPerMinute);
  return s.allowed ? { allowed: true } : { allowed: false, retryAfter: s.resetIn };
}

export const authOptions: NextAuthOptions = {
  secret: sessionSecret(),
  session: { strategy: "jwt" },
  // Errors land on the sign-in form too (it shows `?error=`), not on next-auth's unstyled page.
  pages: { signIn: "/login", error: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        await resolveDatabaseUrl();
        const rate = await authAttempt(ipOf(req?.headers));
        // Thrown messages reach the sign-in form as `error` (a null return only says "wrong credentials").
        if (!rate.allowed) throw new Error(`Too many sign-in attempts; try again in ${rate.retryAfter} seconds`);
        const user = await checkCredentials(getDb(), credentials.email, credentials.password);
        if (!user) return null;
        const ua = req?.headers?.["user-agent"];
        const sid = await openSession(
          getDb(),
          { userId: user.id, userAgent: typeof ua === "string" ? ua : null, ip: ipOf(req?.headers) },
          currentClock().now(),
        );
        return { id: user.id, email: user.email, name: user.name, sid };
      },
    }),
  ],
  events: {
    async signOut({ token }) {
      if (token?.sub && typeof token.sid === "string") {
        await revokeSession(getDb(), token.sub, token.sid, "signed_out", currentClock().now());
      }
    },
  },
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        // The session row this cookie stands for: every request checks it is still open.
        token.sid = (user as { sid?: string }).sid;
      }
      return token;
    },
    async session({ session, token }) {
      session.user = { ...session.user, id: token.sub ?? "" };
      return session;
    },
  },
};
