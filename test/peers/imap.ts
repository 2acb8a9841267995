// @ts-expect-error hoodiecrow-imap ships no types
import hoodiecrow from "hoodiecrow-imap";

/** A real IMAP server (hoodiecrow) for tests; `users` can be changed while it runs. */
export async function startImapPeer(opts: { users: Record<string, string> }) {
  const server = hoodiecrow({
    users: Object.fromEntries(Object.entries(opts.users).map(([u, p]) => [u, { password: p }])),
    plugins: ["IDLE", "SPECIAL-USE", "UIDPLUS", "ENABLE", "CONDSTORE", "LITERALPLUS"],
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
    server,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type ImapPeer = Awaited<ReturnType<typeof startImapPeer>>;
