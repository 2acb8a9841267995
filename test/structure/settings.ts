import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARS } from "../../lib/env-vars";
import { configurationDoc, readmeTable } from "../../scripts/config-docs";

/**
 * One settings module: lib/env.ts is the only code in lib/, db/, inngest/, app/ and components/ that
 * reads process.env, every variable it (or an OAuth helper) reads is declared in lib/env-vars.ts, every
 * declared variable is read somewhere, and the README's table and docs/configuration.md are what
 * `npm run docs:config` writes from the declarations.
 */
const root = path.resolve(import.meta.dirname, "..", "..");
const read = (rel: string) => readFileSync(path.join(root, rel), "utf8");

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) sources(rel, out);
    else if (/\.(tsx?|mjs)$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name)) out.push(rel);
  }
  return out;
}

const code = ["lib", "db", "inngest", "app", "components"].flatMap((d) => sources(d));
/** Comments say "process.env" in words; only code counts. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
/** Names the platform or a library owns: read or written for them, not settings of ours. */
const NOT_OURS = new Set(["NODE_ENV", "PATH", "AUTH_TRUST_HOST"]);

describe("the settings module", () => {
  it("is the only reader of process.env in lib/, db/, inngest/, app/ and components/", () => {
    const readers = code.filter((rel) => rel !== path.join("lib", "env.ts") && /process\.env\b/.test(withoutComments(read(rel))));
    expect(readers).toEqual([]);
  });

  it("declares every variable it reads, and reads every variable it declares", () => {
    const env = withoutComments(read("lib/env.ts"));
    const readInEnv = [
      ...env.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g),
      ...env.matchAll(/(?:intEnv|countEnv|textEnv|flagEnv)\("([A-Z][A-Z0-9_]+)"/g),
    ].map((m) => m[1]);
    // OAuth settings are read by name through serviceEnv.oauth (lib/oauth names each one it needs).
    const oauthCode = sources("lib/oauth").map(read).join("\n");
    const oauth = [...oauthCode.matchAll(/"((?:GOOGLE|MICROSOFT)_[A-Z_]+)"/g)].map((m) => m[1]);
    const dnsbl = [...read("lib/domains/dnsbl.ts").matchAll(/"(DNSBL_[A-Z_]+)"/g)].map((m) => m[1]);
    const declared = new Set(ENV_VARS.map((v) => v.name));
    const used = new Set([...readInEnv, ...oauth, ...dnsbl].filter((n) => !NOT_OURS.has(n)));
    expect([...used].filter((n) => !declared.has(n)).sort()).toEqual([]);
    // The launchers (bin/*.mjs, next.config.mjs) are plain JavaScript that runs before lib/ loads.
    const launchers = ["bin/outreach.mjs", "bin/web-server.mjs", "next.config.mjs"].map(read).join("\n");
    expect([...declared].filter((n) => !used.has(n) && !launchers.includes(n)).sort()).toEqual([]);
  });

  it("is documented by the generated README table and docs/configuration.md", () => {
    const readme = read("README.md");
    const table = readme.slice(
      readme.indexOf("<!-- config:start -->") + "<!-- config:start -->".length,
      readme.indexOf("<!-- config:end -->"),
    );
    expect(table.trim(), "README.md's configuration table is stale: run npm run docs:config").toBe(readmeTable().trim());
    expect(read("docs/configuration.md"), "docs/configuration.md is stale: run npm run docs:config").toBe(configurationDoc());
  });
});
