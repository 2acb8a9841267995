/**
 * Received HTML, made safe to show inside `<iframe sandbox="" srcdoc>` (browser only: DOMParser builds
 * an inert document — nothing in it runs or loads while it is cleaned).
 *
 * Three layers: the sandbox (no scripts, forms, popups or navigation of the page), a Content-Security-
 * Policy in the document itself (nothing remote loads unless images were allowed, and then images only),
 * and this cleaning: active content and every attribute that could fetch or run something are removed,
 * and remote images lose their address — which is only written back into the srcdoc once the user asks
 * for them ("Show images"), so opening a message never tells a tracker it was read.
 */

/** Removed with their content. */
const DROP = new Set([
  "script",
  "noscript",
  "template",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "param",
  "meta",
  "link",
  "base",
  "title",
  "audio",
  "video",
  "source",
  "track",
  "picture",
  "portal",
  "svg",
  "math",
  "canvas",
  "dialog",
  "slot",
  "xml",
]);

/** Attributes that fetch or point somewhere; handled one by one below, removed elsewhere. */
const URL_ATTRS = new Set([
  "href",
  "src",
  "srcset",
  "action",
  "formaction",
  "background",
  "poster",
  "cite",
  "longdesc",
  "usemap",
  "ping",
  "lowsrc",
  "dynsrc",
  "manifest",
  "codebase",
  "archive",
  "profile",
  "data",
  "xlink:href",
  "xmlns:xlink",
  "imagesrcset",
]);

const SAFE_LINK = /^(https?:|mailto:|tel:|#)/i;
const DATA_IMAGE = /^data:image\/(png|gif|jpe?g|webp|bmp);/i;

/** A remote address as it may be loaded once images are allowed (protocol-relative ones over https), else null. */
function loadable(u: string): string | null {
  if (/^https?:\/\//i.test(u)) return u;
  if (u.startsWith("//")) return "https:" + u;
  return null;
}

export interface PreparedHtml {
  /** The document for srcdoc. */
  srcdoc: string;
  /** Remote images (and CSS backgrounds) left out; "Show images" is offered when there are any. */
  blockedImages: number;
}

/** `url(...)` in CSS: remote ones are removed unless images are allowed; @import never survives. */
function cleanCss(css: string, showImages: boolean, count: () => void): string {
  return css
    .replace(/@import[^;]*;?/gi, "")
    .replace(/expression\s*\(|behavior\s*:|-moz-binding\s*:/gi, "x-blocked:")
    .replace(/url\(\s*(['"]?)(.*?)\1\s*\)/gi, (whole, _q: string, raw: string) => {
      const u = raw.trim();
      if (DATA_IMAGE.test(u)) return whole;
      const remote = loadable(u);
      if (showImages && remote) return `url("${remote.replace(/["\\]/g, encodeURIComponent)}")`;
      if (remote) count();
      return "none";
    });
}

function baseCss(): string {
  return [
    "html{color-scheme:light}",
    "body{margin:0;padding:12px;font:14px/1.5 ui-sans-serif,system-ui,-apple-system,'Segoe UI',sans-serif;color:#111827;overflow-wrap:anywhere}",
    "img{max-width:100%;height:auto}",
    "img[data-blocked]{display:inline-block;min-width:1em;min-height:1em;outline:1px dashed #d1d5db;color:#6b7280;font-size:12px}",
    "blockquote{margin:0 0 0 .5em;padding-left:.75em;border-left:2px solid #d1d5db;color:#4b5563}",
    "pre{white-space:pre-wrap}",
    "a{color:#4338ca}",
  ].join("");
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

export function prepareHtml(html: string, opts: { showImages: boolean }): PreparedHtml {
  let blocked = 0;
  const count = () => void blocked++;
  const doc = new DOMParser().parseFromString(html, "text/html");
  const styles: string[] = [];

  for (const el of Array.from(doc.querySelectorAll("*"))) {
    if (!el.isConnected) continue; // inside something already dropped
    const tag = el.localName;
    if (DROP.has(tag)) {
      el.remove();
      continue;
    }
    if (tag === "style") {
      styles.push(cleanCss(el.textContent ?? "", opts.showImages, count));
      el.remove();
      continue;
    }
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value.trim();
      if (name.startsWith("on") || name === "srcdoc" || name === "http-equiv" || name === "target" || name === "autofocus") {
        el.removeAttribute(attr.name);
      } else if (name === "style") {
        el.setAttribute("style", cleanCss(attr.value, opts.showImages, count));
      } else if (URL_ATTRS.has(name)) {
        if (name === "href" && (tag === "a" || tag === "area") && SAFE_LINK.test(value)) {
          // Links cannot open from the sandbox; the address shows on hover.
          if (!el.getAttribute("title")) el.setAttribute("title", value);
          el.setAttribute("rel", "noopener noreferrer");
        } else if (name === "src" && tag === "img") {
          if (DATA_IMAGE.test(value)) continue;
          const remote = loadable(value);
          if (opts.showImages && remote) {
            el.setAttribute("src", remote);
            continue;
          }
          if (remote) count();
          el.removeAttribute("src");
          el.setAttribute("data-blocked", "");
        } else if (name === "background" && loadable(value)) {
          if (opts.showImages) {
            el.setAttribute("background", loadable(value)!);
            continue;
          }
          count();
          el.removeAttribute(attr.name);
        } else {
          el.removeAttribute(attr.name);
        }
      }
    }
  }

  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `img-src data:${opts.showImages ? " https: http:" : ""}`,
    "font-src data:",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
  const head =
    `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}"><meta name="referrer" content="no-referrer">` +
    `<base target="_blank"><style>${baseCss()}</style>` +
    styles.map((s) => `<style>${s.replace(/<\/style/gi, "<\\/style")}</style>`).join("");
  // outerHTML: the body's own (cleaned) attributes, such as bgcolor, stay.
  const body = doc.body ? doc.body.outerHTML : "<body></body>";
  return { srcdoc: `<!doctype html><html><head>${head}</head>${body}</html>`, blockedImages: blocked };
}
