import { gzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { imapState, replies } from "../../db/schema";
import { systemClock } from "../../lib/clock";
import { encryptSecret } from "../../lib/crypto/secretbox";
import { systemCtx } from "../../lib/ctx";
import { syncMailbox } from "../../lib/inbox/sync";
import type { Logger } from "../../lib/log";
import { imapClient } from "../../lib/mail/imap";
import { insertMailbox } from "../factories";
import { makeWorkspace } from "../helpers";
import { startImapPeer } from "../peers/imap";
import { figure } from "./figures";

/**
 * A corpus of hostile messages through the real IMAP sync (hoodiecrow peer):
 * deep MIME nesting, 10,000 parts, a 1 MB header line, broken encodings, a zip-bomb-like attachment,
 * malformed dates and addresses. Each one: under 5 s, under 256 MB of growth, no crash; it is stored
 * or skipped with a reason in the log, the mailbox's position moves past it, and the mailbox keeps
 * syncing (a plain message after the corpus is stored).
 */
const MAILBOX = "victim@hostile.test";
const SECONDS = 5;
const GROWTH_MB = 256;

const head = (id: string, extra = "") =>
  `From: Sender <sender@hostile.test>\r\nTo: ${MAILBOX}\r\nSubject: ${id}\r\nMessage-ID: <${id}@hostile.test>\r\nDate: Thu, 26 Nov 2026 10:00:00 +0000\r\n${extra}`;

function nested(depth: number): string {
  let body = "Content-Type: text/plain\r\n\r\ninnermost\r\n";
  for (let i = depth; i > 0; i--) body = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${body}--b${i}--\r\n`;
  return body;
}

function manyParts(n: number): string {
  const parts = Array.from({ length: n }, (_, i) => `--p\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`).join("");
  return `Content-Type: multipart/mixed; boundary="p"\r\n\r\n${parts}--p--\r\n`;
}

/** 64 MB of zeros gzipped to ~64 KB: an attachment that only hurts whoever inflates it (the sync never does). */
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });

function attachment(name: string, data: Buffer, extra = ""): string {
  const b64 = data.toString("base64").replace(/.{76}/g, "$&\r\n");
  return `--z\r\nContent-Type: application/gzip; name="${name}"\r\n${extra}Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename="${name}"\r\n\r\n${b64}\r\n`;
}

/** name → raw message. */
const CORPUS: [string, string][] = [
  ["deep-nesting", head("deep-nesting", "MIME-Version: 1.0\r\n") + nested(2000)],
  ["ten-thousand-parts", head("ten-thousand-parts", "MIME-Version: 1.0\r\n") + manyParts(10_000)],
  ["megabyte-header", `${head("megabyte-header", `X-Long: ${"a".repeat(1024 * 1024)}\r\n`)}\r\nbody\r\n`],
  [
    "megabyte-subject",
    `${head("megabyte-subject").replace("Subject: megabyte-subject", `Subject: ${"s".repeat(1024 * 1024)}`)}\r\nbody\r\n`,
  ],
  ["unknown-charset", `${head("unknown-charset", "Content-Type: text/plain; charset=x-no-such-charset\r\n")}\r\nh\xe9llo \xff\xfe\r\n`],
  [
    "broken-base64",
    `${head("broken-base64", "Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n")}\r\n!!!!not base64 at all====\r\n`,
  ],
  ["broken-qp", `${head("broken-qp", "Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n")}\r\n=ZZ=\r\n=4=\r\n`],
  [
    "bad-encoded-words",
    `${head("bad-encoded-words").replace("Subject: bad-encoded-words", "Subject: =?utf-8?B?####?= =?x?Q?=ZZ?=")}\r\nbody\r\n`,
  ],
  [
    "zip-bomb-like",
    `${head("zip-bomb-like", 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="z"\r\n')}\r\n--z\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n${attachment("bomb.gz", BOMB)}${attachment("bomb.tar.gz", BOMB, "Content-Encoding: gzip\r\n")}${attachment("big.bin", Buffer.alloc(4 * 1024 * 1024, 7))}--z--\r\n`,
  ],
  ["malformed-date", `${head("malformed-date").replace(/Date: .*\r\n/, "Date: yesterday at noon, probably\r\n")}\r\nbody\r\n`],
  ["no-date-no-from", `To: ${MAILBOX}\r\nSubject: no-date-no-from\r\nMessage-ID: <no-date-no-from@hostile.test>\r\n\r\nbody\r\n`],
  [
    "malformed-addresses",
    `${head("malformed-addresses").replace(/From: .*\r\n/, 'From: <<<@@>>>, "unclosed <x@\r\n')}Cc: undisclosed-recipients:;\r\n\r\nbody\r\n`,
  ],
  ["no-message-id", "From: a@hostile.test\r\nTo: victim@hostile.test\r\nSubject: no-message-id\r\n\r\nbody\r\n"],
  // A raw NUL cannot travel in an IMAP literal; quoted-printable decodes to one, which Postgres text cannot hold.
  [
    "nul-in-text",
    `${head("nul-in-text", "Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n")}\r\nbefore=00after\r\n`,
  ],
];

let imap: Awaited<ReturnType<typeof startImapPeer>>;
beforeAll(async () => {
  imap = await startImapPeer({ users: { [MAILBOX]: "pw" } });
});
afterAll(() => imap.close());

async function append(raw: string) {
  const client = imapClient({ host: imap.host, port: imap.port, security: "NONE", username: MAILBOX, password: "pw" });
  await client.connect();
  await client.append("INBOX", Buffer.from(raw, "latin1"));
  await client.logout();
}

describe("hostile mail through the IMAP sync", () => {
  it("stores or skips each message with a reason, fast and within memory, and keeps syncing", async () => {
    const ws = await makeWorkspace("hostile");
    const m = await insertMailbox(ws.workspaceId, MAILBOX, {
      imapHost: imap.host,
      imapPort: imap.port,
      imapSecurity: "NONE",
      imapUsername: MAILBOX,
      imapPasswordEnc: encryptSecret("pw"),
    });
    const warnings: string[] = [];
    const log: Logger = { info() {}, warn: (msg) => void warnings.push(msg), error: (msg) => void warnings.push(msg) };
    const ctx = systemCtx(undefined, { db: getDb(), clock: systemClock, log });
    const bad: string[] = [];
    let slowest = 0;
    let largest = 0;
    let stored = 0;
    for (const [i, [name, raw]] of CORPUS.entries()) {
      await append(raw);
      const rss = process.memoryUsage().rss;
      let peak = rss;
      const sample = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 10);
      const t0 = performance.now();
      const result = await syncMailbox(ctx, m).catch((e: Error) => e);
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sample);
      peak = Math.max(peak, process.memoryUsage().rss);
      slowest = Math.max(slowest, seconds);
      largest = Math.max(largest, (peak - rss) / 1024 / 1024);
      const [state] = await getDb()
        .select()
        .from(imapState)
        .where(and(eq(imapState.mailboxId, m.id), eq(imapState.folder, "INBOX")));
      const kept = await getDb().$count(replies, and(eq(replies.mailboxId, m.id), eq(replies.imapUid, i + 1)));
      const reason = warnings.find((w) => w.includes(`UID ${i + 1}:`));
      if (result instanceof Error) bad.push(`${name}: the sync threw ${result.message.slice(0, 200)}`);
      if (state?.lastUid !== i + 1) bad.push(`${name}: the mailbox's position is ${state?.lastUid}, not past UID ${i + 1}`);
      if (!kept && !reason) bad.push(`${name}: neither stored nor skipped with a reason`);
      if (seconds > SECONDS) bad.push(`${name}: took ${seconds.toFixed(1)} s`);
      stored += kept;
    }
    await append(`${head("plain-after")}\r\nStill here?\r\n`);
    await syncMailbox(ctx, m);
    const after = await getDb().$count(replies, and(eq(replies.mailboxId, m.id), eq(replies.subject, "plain-after")));
    figure({
      suite: "hostile-mail",
      name: `messages (${stored} stored, ${CORPUS.length - stored} skipped with a reason)`,
      value: CORPUS.length,
      goal: "no crash",
      pass: !bad.length,
    });
    figure({
      suite: "hostile-mail",
      name: "slowest message",
      value: `${slowest.toFixed(2)} s`,
      goal: `< ${SECONDS} s`,
      pass: slowest < SECONDS,
    });
    figure({
      suite: "hostile-mail",
      name: "largest RSS growth during one sync",
      value: `${largest.toFixed(0)} MB`,
      goal: `< ${GROWTH_MB} MB`,
      pass: largest < GROWTH_MB,
    });
    figure({ suite: "hostile-mail", name: "a plain message after the corpus is stored", value: after, goal: "1", pass: after === 1 });
    expect(bad).toEqual([]);
    expect(largest).toBeLessThan(GROWTH_MB);
    expect(after).toBe(1);
  });
});
