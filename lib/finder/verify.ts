import { createHash } from "node:crypto";
import { verifyEnv } from "../env";
import { espClassOf, type EspClass, providerFromAddressDomain, providerFromMx } from "../mail/providers";
import { openProbe, ProbeError, type ProbeSession, type SmtpReply } from "../mail/smtp-probe";
import { resolveA, resolveMx } from "../net/dns";

/**
 * Verifies guessed or given addresses at one domain over SMTP: the MX hosts through DNS_SERVERS, a
 * session on SMTP_VERIFY_PORT with `RCPT TO` for each candidate until one is accepted, then `RCPT TO`
 * an address nobody has at the domain (probeAddress) — accepted too means the domain accepts
 * everything (CATCH_ALL). Never DATA. Verdicts use the leads' verificationStatus vocabulary:
 * - 250/251 for a candidate, the probe address refused → VALID;
 * - the probe address accepted too → CATCH_ALL (the first accepted candidate is kept as the guess);
 * - every candidate refused with 5xx (550 5.1.1 …) → INVALID; no MX at all → INVALID;
 * - 4xx (greylisting, "try again later") to a candidate before any is accepted, to the probe, or to
 *   the session's greeting or MAIL FROM → GREYLISTED: the caller retries later;
 * - a timeout, a refused or dropped connection, an unanswered DNS query → UNKNOWN.
 * Politeness: one session per domain at a time in this process, and SMTP_VERIFY_DELAY_MS between two
 * sessions at the same domain.
 */

export type Verdict = {
  status: "VALID" | "INVALID" | "CATCH_ALL" | "UNKNOWN" | "GREYLISTED";
  email: string | null;
  espClass: EspClass;
  detail: string;
  /**
   * No connection could be made to the MX host's SMTP port (refused, or nothing answered the connect):
   * on most cloud hosts outbound port 25 is blocked, so every other domain would fail the same way.
   */
  unreachable?: true;
};

/** What an operator can do when the verification port cannot be reached from this server. */
export function unreachableHint(port: number): string {
  return (
    `SMTP port ${port} cannot be reached from this server (most cloud hosts block outbound port 25), so no address ` +
    "could be checked: run Outreach where that port is open, point SMTP_VERIFY_PORT at a port that is, or configure an " +
    "email-finding provider"
  );
}

/** The domain's MX hosts in preference order, its ESP class, or why it has none. */
async function mxOf(domain: string): Promise<{ hosts: string[]; espClass: EspClass } | { error: string; none?: true }> {
  const r = await resolveMx(domain);
  if (!r.ok) return { error: r.error };
  const hosts = r.records.map((m) => m.exchange.toLowerCase().replace(/\.$/, "")).filter(Boolean);
  if (!hosts.length) return { error: `${domain} has no MX records`, none: true };
  const provider = providerFromMx(hosts) ?? providerFromAddressDomain(domain);
  return { hosts, espClass: provider ? espClassOf(provider) : "OTHER" };
}

/** The first MX host that has an address, as an IP (resolved through DNS_SERVERS like the MX itself). */
async function addressOf(hosts: string[]): Promise<string | undefined> {
  for (const host of hosts) {
    if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return host;
    const a = await resolveA(host);
    if (a.ok && a.records.length) return a.records[0];
  }
  return undefined;
}

const byDomain = new Map<string, Promise<unknown>>();

/** Runs `fn` when no other session at `domain` runs in this process, and keeps the next one `delayMs` after it. */
function politely<T>(domain: string, fn: () => Promise<T>): Promise<T> {
  const before = byDomain.get(domain) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const pause = run.then(
    () => new Promise((r) => setTimeout(r, verifyEnv.delayMs)),
    () => new Promise((r) => setTimeout(r, verifyEnv.delayMs)),
  );
  byDomain.set(domain, pause);
  void pause.then(() => {
    if (byDomain.get(domain) === pause) byDomain.delete(domain);
  });
  return run;
}

const accepted = (code: number) => code === 250 || code === 251;
const temporary = (code: number) => code >= 400 && code < 500;

/**
 * The catch-all probe's address at a domain: random-looking, but the same on every attempt. A
 * greylister answers a recipient 4xx until it is asked again later; a new address each time would be
 * greylisted forever, and its 4xx read as a refusal would call a catch-all domain VALID.
 */
export function probeAddress(domain: string): string {
  return `${createHash("sha256").update(`outreach-catch-all-probe:${domain}`).digest("hex").slice(0, 16)}-probe@${domain}`;
}

/**
 * One session's RCPTs: the candidates in order, then the catch-all probe once one is accepted. A 4xx
 * (greylisting) does not end the session: the candidates after it, and the probe, are asked too, so the
 * greylister has seen every address the retry will ask (it greylists each recipient on its own). The
 * verdict is then GREYLISTED — also when a later candidate was accepted, because the greylisted one
 * before it is the likelier address.
 */
async function probeCandidates(s: ProbeSession, domain: string, candidates: string[], espClass: EspClass): Promise<Verdict> {
  let refusals = "";
  let greylisted: SmtpReply | undefined;
  for (const email of candidates) {
    const r = await s.rcpt(email);
    if (temporary(r.code)) {
      greylisted ??= r;
      continue;
    }
    if (accepted(r.code)) {
      if (greylisted) break;
      const probe = probeAddress(domain);
      const c = await s.rcpt(probe);
      if (accepted(c.code)) return { status: "CATCH_ALL", email, espClass, detail: `the domain accepts any address (${probe})` };
      if (temporary(c.code)) return { status: "GREYLISTED", email: null, espClass, detail: `catch-all probe: ${c.code} ${c.text}` };
      return { status: "VALID", email, espClass, detail: `${r.code} ${r.text}` };
    }
    refusals ||= `${r.code} ${r.text}`;
  }
  if (greylisted) {
    // Best effort: a server that drops the session now still leaves the verdict greylisted.
    await s.rcpt(probeAddress(domain)).catch(() => undefined);
    return { status: "GREYLISTED", email: null, espClass, detail: `${greylisted.code} ${greylisted.text}` };
  }
  return { status: "INVALID", email: null, espClass, detail: refusals || "no candidate address" };
}

export async function verifyAtDomain(domain: string, candidates: string[]): Promise<Verdict> {
  const mx = await mxOf(domain);
  if ("error" in mx)
    return { status: mx.none ? "INVALID" : "UNKNOWN", email: null, espClass: mx.none ? "OTHER" : "UNKNOWN", detail: mx.error };
  const host = await addressOf(mx.hosts);
  if (!host) return { status: "UNKNOWN", email: null, espClass: mx.espClass, detail: `no address for ${mx.hosts.join(", ")}` };
  if (!candidates.length) return { status: "UNKNOWN", email: null, espClass: mx.espClass, detail: "no candidate address" };
  return politely(domain, async () => {
    let session: ProbeSession | undefined;
    try {
      const { port, timeoutMs, helo, mailFrom } = verifyEnv;
      session = await openProbe({ host, port, timeoutMs, helo, mailFrom });
      return await probeCandidates(session, domain, candidates, mx.espClass);
    } catch (e) {
      const reply = e instanceof ProbeError ? e.reply : undefined;
      const detail = (e as Error).message;
      // Only a server's real 4xx answer is retried later; a port that cannot be reached is not greylisting.
      if (reply && reply.code >= 400 && reply.code < 500) return { status: "GREYLISTED", email: null, espClass: mx.espClass, detail };
      if (e instanceof ProbeError && e.kind === "connect")
        return { status: "UNKNOWN", email: null, espClass: mx.espClass, detail, unreachable: true };
      return { status: "UNKNOWN", email: null, espClass: mx.espClass, detail };
    } finally {
      await session?.quit();
    }
  });
}
