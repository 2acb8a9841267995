import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { urlToHttpOptions } from "node:url";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { addressProblem, allowList, bareHost, resolveAll, type AllowList } from "./ssrf";

export class OutboundError extends Error {
  constructor(
    readonly kind: "blocked" | "timeout" | "network",
    message: string,
  ) {
    super(message);
  }
}

export interface SafeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The first `maxBody` bytes of the body, as text. */
  body: string;
}

/**
 * DNS look-up at connect time that refuses private and reserved answers, so a name that resolves to a
 * public address when saved and to an internal one later (DNS rebinding) is still refused.
 */
function guardedLookup(allow: AllowList): LookupFunction {
  return (hostname, options, cb) => {
    resolveAll(hostname)
      .then((addresses) => {
        if (addresses.length === 0) return cb(Object.assign(new Error(`${hostname} does not resolve`), { code: "ENOTFOUND" }), "");
        for (const a of addresses) {
          const p = addressProblem(a, allow);
          if (p) return cb(new OutboundError("blocked", `Refused to connect to ${hostname}: ${p}`), "");
        }
        const list = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
        if (options?.all) cb(null, list);
        else cb(null, list[0].address, list[0].family);
      })
      .catch((e) => cb(e as Error, ""));
  };
}

/** What a request needs of its URL under an allow list, worked out once per URL (see `target`). */
interface Target {
  host: string;
  hostAllowed: boolean;
  /** Why an IP-literal host may not be reached (the connect-time guard would refuse it too). */
  problem: string | undefined;
  isHttps: boolean;
  /** node:http's options for the URL (from urlToHttpOptions), without method, headers or agent. */
  base: Pick<http.RequestOptions, "protocol" | "hostname" | "port" | "path" | "auth">;
  lookup: LookupFunction | undefined;
  /** The agents this URL goes through, plain and keep-alive (agentFor's, looked up once). */
  agents: [http.Agent | undefined, http.Agent | undefined];
}

/**
 * Targets by URL, per allow list. Parsing the URL, checking an IP literal and building its options
 * cost ~15 µs a request, and the webhook job sends thousands to the same few URLs. Only what follows
 * from the URL text and the allow list is kept: the address a name resolves to is checked by the
 * filtering agent and `guardedLookup` on every connection, as before. Bounded: cleared past its size.
 */
const targets = new WeakMap<AllowList, Map<string, Target>>();
const MAX_TARGETS = 1_000;
const lookups = new WeakMap<AllowList, LookupFunction>();

function target(rawUrl: string, allow: AllowList): Target {
  let byUrl = targets.get(allow);
  if (!byUrl) targets.set(allow, (byUrl = new Map()));
  let t = byUrl.get(rawUrl);
  if (t) return t;
  const url = new URL(rawUrl);
  const host = bareHost(url);
  const hostAllowed = allow.hosts.has(host);
  let lookup = lookups.get(allow);
  if (!lookup) lookups.set(allow, (lookup = guardedLookup(allow)));
  t = {
    host,
    hostAllowed,
    problem: !hostAllowed && /^[\d.]+$|:/.test(host) ? addressProblem(host, allow) : undefined,
    isHttps: url.protocol === "https:",
    base: httpOptions(url),
    lookup: hostAllowed ? undefined : lookup,
    agents: [undefined, undefined],
  };
  if (byUrl.size >= MAX_TARGETS) byUrl.clear();
  byUrl.set(rawUrl, t);
  return t;
}

/** The fields of urlToHttpOptions that node:http reads, as a plain object (it returns a prototype-less one). */
function httpOptions(url: URL): Target["base"] {
  const o = urlToHttpOptions(url);
  return { protocol: o.protocol, hostname: o.hostname, port: o.port, path: o.path, auth: o.auth };
}

/**
 * The one client for outbound HTTP (webhooks, crawls): the SSRF guard at connect time, no redirects
 * (a 3xx is returned, never followed), a hard timeout, and a bounded body read.
 */
export function safeRequest(
  rawUrl: string,
  opts: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs: number;
    maxBody?: number;
    allow?: AllowList;
    keepAlive?: boolean;
  },
): Promise<SafeResponse> {
  const allow = opts.allow ?? allowList();
  const t = target(rawUrl, allow);
  if (t.problem) return Promise.reject(new OutboundError("blocked", `Refused to connect to ${t.host}: ${t.problem}`));
  const keep = opts.keepAlive ? 1 : 0;
  const agent = (t.agents[keep] ??= agentFor(allow, t.hostAllowed, t.isHttps, keep === 1));
  const maxBody = opts.maxBody ?? 1024;
  return new Promise<SafeResponse>((resolve, reject) => {
    const req = (t.isHttps ? https : http).request(
      {
        protocol: t.base.protocol,
        hostname: t.base.hostname,
        port: t.base.port,
        path: t.base.path,
        auth: t.base.auth,
        method: opts.method ?? "GET",
        headers: opts.headers,
        agent,
        lookup: t.lookup,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (size < maxBody) chunks.push(c.subarray(0, maxBody - size));
          size += c.length;
        });
        res.on("end", () => {
          clearTimeout(timer);
          // The headers object is built from the raw headers on first read: only callers that look pay for it.
          resolve({
            status: res.statusCode ?? 0,
            get headers() {
              return res.headers;
            },
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
        res.on("error", (e) => reject(new OutboundError("network", e.message)));
      },
    );
    const timer = setTimeout(() => req.destroy(new OutboundError("timeout", `No answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on("error", (e) => {
      clearTimeout(timer);
      if (e instanceof OutboundError) return reject(e);
      if (/not allowed/.test(e.message)) return reject(new OutboundError("blocked", e.message));
      reject(new OutboundError("network", e.message));
    });
    // One write with a known length (no chunked encoding). A string body goes as bytes: node:http
    // would otherwise concatenate it to the header text (~6 µs a request for a webhook's body).
    const body = typeof opts.body === "string" ? Buffer.from(opts.body, "utf8") : opts.body;
    if (body !== undefined) req.setHeader("Content-Length", body.length);
    req.end(body);
  });
}

/**
 * One filtering agent per allow list, kind and keep-alive, reused. With keepAlive, idle connections
 * (at most 10 per host, 5 s) are reused; the filtering agent checks the address of every connection
 * when it opens, so a reused one was checked too, and DNS changes reach new connections.
 */
const agents = new Map<string, RequestFilteringHttpAgent | RequestFilteringHttpsAgent>();
/** An allow list's networks as text, once per list (the agents' key; written per request it cost ~3 µs). */
const cidrKeys = new WeakMap<AllowList, string>();
function agentFor(allow: AllowList, hostAllowed: boolean, isHttps: boolean, keepAlive: boolean) {
  let cidrs = cidrKeys.get(allow);
  if (cidrs === undefined) cidrKeys.set(allow, (cidrs = allow.cidrs.map(([a, b]) => `${a}/${b}`).join(",")));
  const key = `${isHttps}|${hostAllowed}|${keepAlive}|${cidrs}`;
  let agent = agents.get(key);
  if (!agent) {
    // Single addresses go in as plain IPs: the agent compares those as strings, but parses every CIDR
    // on every connection (ipaddr.js tries IPv6 first and throws for IPv4 — ~45 µs a request).
    const entry = ([a, bits]: AllowList["cidrs"][number]) =>
      bits === (a.kind() === "ipv4" ? 32 : 128) ? a.toString() : `${a.toString()}/${bits}`;
    const options = {
      allowPrivateIPAddress: hostAllowed,
      allowIPAddressList: allow.cidrs.map(entry),
      denyIPAddressList: ["100.100.100.200", "192.0.0.192"],
      keepAlive,
      ...(keepAlive ? { maxFreeSockets: 10, timeout: 5000, noDelay: true } : {}),
    };
    agent = isHttps ? new RequestFilteringHttpsAgent(options) : new RequestFilteringHttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}
