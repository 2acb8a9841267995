import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const SOURCES = [
  "app",
  "components",
  "lib",
  "db",
  "public",
  "inngest",
  "next.config.mjs",
  // Next.js's root-level files: the proxy (security headers, the nonce) and the browser's instrumentation.
  "proxy.ts",
  "instrumentation-client.ts",
  "package-lock.json",
  "postcss.config.mjs",
  "tsconfig.json",
];

function walk(p: string, out: string[]): void {
  if (!existsSync(p)) return;
  const s = statSync(p);
  if (s.isDirectory()) {
    for (const name of readdirSync(p).sort()) if (name !== "node_modules" && !name.startsWith(".")) walk(path.join(p, name), out);
  } else if (!/\.test\.tsx?$|\.d\.ts$/.test(p)) {
    // Tests and type declarations (the generated client's among them) change nothing the build makes: it skips the type check.
    out.push(`${p}:${s.size}:${Math.floor(s.mtimeMs)}`);
  }
}

/** A fingerprint of what the production build is made from, so `npm start` rebuilds only after a change. */
export function sourceStamp(root: string): string {
  const files: string[] = [];
  for (const s of SOURCES) walk(path.join(root, s), files);
  return createHash("sha1").update(files.join("\n")).digest("hex");
}

export function buildIsCurrent(root: string): boolean {
  const stampFile = path.join(root, ".next", "outreach-stamp");
  return existsSync(path.join(root, ".next", "BUILD_ID")) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === sourceStamp(root);
}

export function markBuilt(root: string): void {
  writeFileSync(path.join(root, ".next", "outreach-stamp"), sourceStamp(root));
}
