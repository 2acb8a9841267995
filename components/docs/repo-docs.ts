import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { marked } from "marked";
import sanitizeHtml from "sanitize-html";

/**
 * The project's user guides (the repository's docs/*.md), served inside the dashboard at
 * /docs/guides/<name> (/docs/api is the API reference itself), so that a reference to `docs/teams.md`
 * anywhere in the dashboard can be a link that works on any installation, online or not, and always
 * shows the guide of the version that is running.
 */

/** The folder the app was started in holds docs/ (the CLI starts the web server from the checkout). */
const DIR = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "docs");

/** A guide's name: lowercase letters, digits and dashes — nothing that could step out of docs/. */
const NAME = /^[a-z0-9][a-z0-9-]*$/;

/** The names of the guides there are (`teams` for docs/teams.md). */
export function docNames(): Set<string> {
  try {
    return new Set(
      readdirSync(DIR())
        .filter((f) => f.endsWith(".md"))
        .map((f) => f.slice(0, -3))
        .filter((n) => NAME.test(n)),
    );
  } catch {
    return new Set();
  }
}

export function docHref(name: string): string {
  return `/docs/guides/${name}`;
}

/** One guide as HTML, or null when there is no such guide. */
export function renderDoc(name: string, names = docNames()): { title: string; html: string } | null {
  if (!NAME.test(name) || !names.has(name)) return null;
  const md = readFileSync(path.join(DIR(), `${name}.md`), "utf8");
  const title = /^#\s+(.+)$/m.exec(md)?.[1]?.trim() ?? name;
  const raw = marked.parse(md, { async: false, gfm: true });
  // Our own files, but rendered into the dashboard's page: only document markup, no scripts or handlers.
  const html = sanitizeHtml(raw, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(["img", "h1", "h2", "del", "input"]),
    allowedAttributes: { ...sanitizeHtml.defaults.allowedAttributes, "*": ["id"], input: ["type", "checked", "disabled"] },
    transformTags: { a: (_tag, attribs) => ({ tagName: "a", attribs: { ...attribs, href: guideLink(attribs.href ?? "", names) } }) },
  });
  return { title, html };
}

/** A guide's relative links to its siblings (`teams.md`, `docs/api.md#limits`) point at their page here. */
function guideLink(href: string, names: Set<string>): string {
  const m = /^(?:\.\/|(?:\.\.\/)?docs\/)?([a-z0-9-]+)\.md(#.*)?$/.exec(href);
  return m && names.has(m[1]) ? `${docHref(m[1])}${m[2] ?? ""}` : href;
}

/** `docs/<name>.md` written in text (with the backticks of inline code, when it is written so). */
export const DOC_REF = /(`?)\bdocs\/([a-z0-9-]+)\.md\b(`?)/g;

/** Markdown text with each mention of an existing guide made a link to its page (descriptions Scalar renders). */
export function linkDocsInMarkdown(text: string, names: Set<string>): string {
  return text.replace(DOC_REF, (whole: string, open: string, name: string, close: string, offset: number) => {
    // Already a link (its text or its target), or part of a longer path: leave it.
    const before = text.slice(Math.max(0, offset - 2), offset);
    if (before.endsWith("[") || before === "](" || before.endsWith("/")) return whole;
    if (!names.has(name)) return whole;
    const code = open && close;
    const label = code ? whole : `docs/${name}.md`;
    return `${code ? "" : open}[${label}](${docHref(name)})${code ? "" : close}`;
  });
}
