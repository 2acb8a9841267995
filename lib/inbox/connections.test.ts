import { afterAll, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/clock";
import { startImapPeer } from "@/test/peers/imap";
import { ImapConnections } from "./connections";

describe("the sidecar's IMAP connections", () => {
  let peer: Awaited<ReturnType<typeof startImapPeer>>;
  afterAll(async () => peer?.close());

  it("reuses one connection per mailbox, replaces it when credentials change or it broke, and backs off after failures", async () => {
    peer = await startImapPeer({ users: { "u@x.test": "pw", "v@x.test": "pw" } });
    const clock = new ManualClock(new Date(1_000_000));
    const pool = new ImapConnections(clock);
    const cfg = { host: peer.host, port: peer.port, security: "NONE" as const, username: "u@x.test", password: "pw" };
    const a = await pool.get("mbx_1", cfg);
    expect(await pool.get("mbx_1", cfg)).toBe(a); // reused between cycles
    expect(a.options.disableAutoIdle).toBe(true); // polled: no IDLE to end at the start of every cycle
    const b = await pool.get("mbx_1", { ...cfg, username: "v@x.test" });
    expect(b).not.toBe(a); // new credentials, new connection
    pool.drop("mbx_1");
    const c = await pool.get("mbx_1", { ...cfg, username: "v@x.test" });
    expect(c).not.toBe(b);
    expect(pool.size).toBe(1);

    const down = { ...cfg, port: 1 };
    await expect(pool.get("mbx_2", down)).rejects.toBeTruthy();
    await expect(pool.get("mbx_2", down)).rejects.toThrow(/backing off for 30 s after 1 failure/);
    clock.advance(31_000);
    await expect(pool.get("mbx_2", down)).rejects.not.toThrow(/backing off/);
    await expect(pool.get("mbx_2", down)).rejects.toThrow(/backing off for 60 s after 2 failure/);

    clock.advance(11 * 60_000);
    expect(pool.closeIdle()).toBe(1);
    expect(pool.size).toBe(0);
    await pool.closeAll();
  });
});
