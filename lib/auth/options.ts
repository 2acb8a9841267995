import type { DefaultSession, NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb, resolveDatabaseUrl } from "../../db/client";
import { sessionSecret } from "./secrets";
import { revokeSession } from "./sessions";
import { signIn } from "./sign-in";
import { currentClock } from "../clock";
import { prepareAuthEnv } from "../env";

declare module "next-auth" {
  interface Session {
    user: { id: string } & DefaultSession["user"];
  }
}

// next-auth v4 builds its own absolute URLs (redirects, cookie security) from NEXTAUTH_URL. When the
// operator has not set it, APP_URL is the public base; without either, trust the Host header so that
// an instance reached as http://my-box:3000 still works.
prepareAuthEnv();

function ipOf(headers: Record<string, unknown> | undefined): string {
  const fwd = headers?.["x-forwarded-for"];
  if (typeof fwd === "string" && fwd) return fwd.split(",")[0].trim();
  const real = headers?.["x-real-ip"];
  return typeof real === "string" && real ? real : "local";
}

/** The per-IP sign-in limit lives with the sign-in itself; the first-run sign-up counts against it too. */

function header(headers: Record<string, unknown> | undefined, name: string): string | null {
  const v = headers?.[name];
  return typeof v === "string" ? v : null;
}

export const authOptions: NextAuthOptions = {
  secret: sessionSecret(),
  session: { strategy: "jwt" },
  // Errors land on the sign-in form too (it shows `?error=`), not on next-auth's unstyled page.
  pages: { signIn: "/login", error: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
        code: { label: "Authentication code", type: "text" },
      },
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        await resolveDatabaseUrl();
        const r = await signIn(
          getDb(),
          {
            email: credentials.email,
            password: credentials.password,
            code: credentials.code,
            ip: ipOf(req?.headers),
            userAgent: header(req?.headers, "user-agent"),
          },
          currentClock().now(),
        );
        if (r.ok) return { id: r.user.id, email: r.user.email, name: r.user.name, sid: r.sid };
        // A null return reaches the form as "CredentialsSignin" (wrong email or password); a thrown
        // message reaches it as `error` as it is: TWO_FACTOR_REQUIRED, TWO_FACTOR_INVALID, a limit's wait.
        if (r.reason === "bad_password" || r.reason === "unknown_email") return null;
        throw new Error(r.message);
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
