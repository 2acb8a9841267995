import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import robotsParser from "robots-parser";
import { appUrl } from "../env";
import { safeRequest } from "../net/http";
import { normalizeText } from "./chunk";

/** How the crawler names itself (robots.txt groups match on "OutreachBot"). */
export const CRAWLER_UA = "OutreachBot";
const FETCH_TIMEOUT_MS = 10_000;
/** Bytes of a page read at most; the rest is ignored. */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

function headers(accept: string): Record<string, string> {
  return { "user-agent": `${CRAWLER_UA}/1.0 (+${appUrl()})`, accept };
}

/** The site's host without a leading www., so www.acme.test and acme.test are one site. */
export function siteOf(u: URL): string {
  return u.hostname.toLowerCase().replace(/^www\./, "");
}

/** An http(s) URL of the same site, without its fragment, or null. */
export function sameSiteUrl(href: string, base: URL, site: string): string | null {
  let u: URL;
  try {
    u = new URL(href, base);
  } catch {
    return null;
  }
  if ((u.protocol !== "http:" && u.protocol !== "https:") || siteOf(u) !== site || u.username || u.password) return null;
  u.hash = "";
  return u.toString();
}

/** The site's robots.txt rules (a missing or unreadable file allows everything; a 5xx disallows everything). */
export async function loadRobots(origin: string): Promise<(url: string) => boolean> {
  const url = `${origin}/robots.txt`;
  try {
    const r = await safeRequest(url, { timeoutMs: FETCH_TIMEOUT_MS, maxBody: 512 * 1024, headers: headers("text/plain") });
    if (r.status >= 500) return () => false;
    if (r.status !== 200) return () => true;
    const robots = robotsParser(url, r.body);
    return (u) => robots.isAllowed(u, CRAWLER_UA) !== false;
  } catch {
    return () => true;
  }
}

export type PageResult =
  | { kind: "page"; title: string | null; text: string; links: string[] }
  | { kind: "redirect"; location: string }
  | { kind: "skipped"; reason: string }
  | { kind: "failed"; reason: string };

/** linkedom's document, typed as the DOM Document Readability expects (it implements the parts it uses). */
function asDom(d: object): Document {
  return d as Document;
}

/** Readable text (Readability on linkedom's DOM; the body's text when it finds no article) and the page's links. */
export function readHtml(html: string, url: string): { title: string | null; text: string; links: string[] } {
  const { document } = parseHTML(html);
  const base = new URL(document.querySelector("base[href]")?.getAttribute("href") ?? url, url);
  const links = [...document.querySelectorAll("a[href]")].map((a) => {
    try {
      return new URL(a.getAttribute("href") ?? "", base).toString();
    } catch {
      return "";
    }
  });
  const docTitle = document.querySelector("title")?.textContent?.trim() || null;
  for (const el of document.querySelectorAll("script, style, noscript, template")) el.remove();
  const bodyText = document.body?.textContent ?? "";
  let article: { title?: string | null; textContent?: string | null } | null = null;
  try {
    article = new Readability(asDom(document)).parse();
  } catch {
    article = null;
  }
  const text = normalizeText(article?.textContent?.trim() ? article.textContent : bodyText);
  return { title: article?.title?.trim() || docTitle, text, links: links.filter(Boolean) };
}

/** Fetches one page through the SSRF-safe client (no redirects followed: a 3xx is returned as such). */
export async function fetchPage(url: string): Promise<PageResult> {
  let r: Awaited<ReturnType<typeof safeRequest>>;
  try {
    r = await safeRequest(url, { timeoutMs: FETCH_TIMEOUT_MS, maxBody: MAX_PAGE_BYTES, headers: headers("text/html,text/plain;q=0.8") });
  } catch (e) {
    return { kind: "failed", reason: (e as Error).message };
  }
  if (r.status >= 300 && r.status < 400) {
    const loc = r.headers.location;
    return loc
      ? { kind: "redirect", location: new URL(loc, url).toString() }
      : { kind: "failed", reason: `HTTP ${r.status} without Location` };
  }
  if (r.status !== 200) return { kind: "failed", reason: `HTTP ${r.status}` };
  const type = String(r.headers["content-type"] ?? "text/html").toLowerCase();
  if (type.startsWith("text/plain")) return { kind: "page", title: null, text: normalizeText(r.body), links: [] };
  if (!type.includes("html")) return { kind: "skipped", reason: `not a web page (${type.split(";")[0]})` };
  const page = readHtml(r.body, url);
  return { kind: "page", ...page };
}
