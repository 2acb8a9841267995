// @ts-expect-error hoodiecrow-imap ships no types
import hoodiecrow from "hoodiecrow-imap";

/** A real IMAP server (hoodiecrow) for tests; `users` can be changed while it runs. */
export async function startImapPeer(opts: { users: Record<string, string>; xoauth2?: (user: string) => string | undefined }) {
  const server = hoodiecrow({
    users: Object.fromEntries(Object.entries(opts.users).map(([u, p]) => [u, { password: p, ...xoauth2Of(u, opts.xoauth2) }])),
    plugins: ["IDLE", "SPECIAL-USE", "UIDPLUS", "ENABLE", "CONDSTORE", "LITERALPLUS", ...(opts.xoauth2 ? ["SASL-IR", "XOAUTH2"] : [])],
    storage: {
      INBOX: { messages: [] },
      "": { separator: "/", folders: { Sent: { "special-use": "\\Sent", messages: [] }, Junk: { "special-use": "\\Junk", messages: [] } } },
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server?.address?.() ?? server.address?.())?.port as number;
  return {
    host: "127.0.0.1",
    port,
    setPassword(user: string, password: string) {
      server.users[user] = { password };
    },
    /** Adds an account while the server runs (with XOAUTH2 when the peer was started with it). */
    addUser(user: string, password = "unused") {
      server.users[user] = { password, ...xoauth2Of(user, opts.xoauth2) };
    },
    server,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * hoodiecrow's xoauth2 plugin compares the presented bearer token with `users[user].xoauth2.accessToken`:
 * a getter answers the user's current token at the OAuth peer, so tokens expire and are revoked there.
 */
function xoauth2Of(user: string, current?: (user: string) => string | undefined) {
  if (!current) return {};
  return {
    xoauth2: {
      get accessToken() {
        return current(user);
      },
    },
  };
}

export type ImapPeer = Awaited<ReturnType<typeof startImapPeer>>;
