import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Which folder of lib/ may import which. The folders form layers: a folder builds only on folders
 * below it, so no two folders import each other, directly or around a longer loop. When a piece of
 * code is needed by a folder below the one it lives in, the piece moves down to the folder that owns
 * the idea (or to a lower one); the lower folder never reaches up to fetch it.
 *
 * MAY_IMPORT lists, for each folder, the other lib/ folders its modules import today. A new import
 * across folders means adding it here, and the table must stay free of loops. The shared files at the
 * root of lib/ (ctx, errors, ids, clock, log, env …) import no folder, so every folder may use them;
 * db/ and packages are outside this table. Test files may import anything: they drive the app from
 * outside, through its routes and jobs.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  ai: ["audit", "crypto", "net"],
  alerts: [],
  analytics: ["audit", "domains", "jobs", "mailboxes", "sending"],
  api: [
    "ai",
    "analytics",
    "audit",
    "auth",
    "campaigns",
    "copy-fatigue",
    "deliverability",
    "domains",
    "finder",
    "inbox",
    "leads",
    "mailboxes",
    "oauth",
    "onboarding",
    "placement",
    "reply-agents",
    "sending",
    "suppressions",
    "tags",
    "warmup",
    "webhooks",
  ],
  audit: [],
  auth: ["audit", "crypto", "mail"],
  campaigns: ["analytics", "audit", "files", "leads", "mail", "mailboxes", "net", "sending", "suppressions", "templates"],
  cli: ["analytics", "auth", "crypto", "net", "security"],
  client: [],
  "copy-fatigue": ["ai", "campaigns"],
  crypto: [],
  deliverability: ["analytics", "domains", "jobs", "mailboxes", "placement", "sending"],
  domains: ["alerts", "audit", "jobs", "net"],
  events: [],
  files: [],
  finder: ["ai", "campaigns", "jobs", "leads", "mail", "net"],
  inbox: ["ai", "campaigns", "events", "files", "leads", "mail", "mailboxes", "sending", "suppressions", "warmup"],
  jobs: [],
  leads: ["ai", "audit", "suppressions"],
  mail: [],
  mailboxes: ["alerts", "audit", "crypto", "domains", "events", "jobs", "mail", "net", "oauth", "tags"],
  net: [],
  oauth: ["crypto"],
  onboarding: [],
  placement: ["alerts", "campaigns", "events", "mail", "mailboxes", "sending"],
  "reply-agents": ["ai", "inbox", "jobs", "net"],
  retention: ["audit", "inbox", "webhooks"],
  security: [],
  sending: ["alerts", "events", "jobs", "mail", "mailboxes", "suppressions", "templates"],
  suppressions: [],
  tags: ["leads"],
  templates: [],
  warmup: ["audit", "events", "mail", "mailboxes", "placement"],
  webhooks: ["audit", "crypto", "jobs", "net"],
};

/**
 * db/ (the schema, the client, migrations, the embedded Postgres) sits below all of lib/: it reads its
 * settings through lib/env and reports start-up failures as lib/startup-error, and nothing else.
 */
const DB_MAY_IMPORT = ["lib/data-dir", "lib/env", "lib/startup-error"];

/**
 * The lib/ modules the benchmarks (scripts/bench-*.ts) load today. A benchmark that starts loading
 * another module reaches further into the app than it did; add it here once that is meant.
 */
const BENCH_MAY_IMPORT = [
  "lib/ai/classify",
  "lib/analytics/tracking-answer",
  "lib/auth/api-keys",
  "lib/auth/users",
  "lib/campaigns/campaigns", // bench:scale:delete deletes a campaign the way the route does
  "lib/cli/web-server",
  "lib/clock",
  "lib/crypto/secretbox",
  "lib/ctx",
  "lib/domains/ensure-domain",
  "lib/events/emit",
  "lib/finder/filters-sql",
  "lib/finder/schemas",
  "lib/finder/search",
  "lib/finder/vocabulary",
  "lib/ids",
  "lib/inbox/connections",
  "lib/inbox/sync",
  "lib/leads/merge",
  "lib/leads/update-leads", // bench:scale:delete deletes leads the way the bulk route does
  "lib/mail/imap",
  "lib/mail/sender",
  "lib/mail/smtp",
  "lib/mailboxes/credentials",
  "lib/net/http",
  "lib/sending/engine",
  "lib/sending/transports",
  "lib/sending/tracking",
  "lib/sending/window",
  "lib/templates/render",
  "lib/webhooks/deliver",
  "lib/webhooks/signing",
  "lib/webhooks/turn",
  "lib/webhooks/webhooks",
];

const root = path.resolve(import.meta.dirname, "..", "..");
const lib = path.join(root, "lib");
const libFolders = readdirSync(lib)
  .filter((n) => statSync(path.join(lib, n)).isDirectory())
  .sort();

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

/** Every module a file names: import and export … from, import(), and `typeof import(…)` types. */
function specifiers(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
      out.push(n.moduleSpecifier.text);
    else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteralLike(n.arguments[0])
    )
      out.push(n.arguments[0].text);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
      out.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

/** The module a specifier names, relative to the repository ("lib/inbox/sync"), or null for a package. */
function target(file: string, spec: string): string | null {
  if (spec.startsWith("@/")) return spec.slice(2);
  if (spec.startsWith("."))
    return path
      .relative(root, path.resolve(path.dirname(file), spec))
      .split(path.sep)
      .join("/");
  return null;
}

/** The lib/ folder a repository path lies in ("lib/inbox/sync" → "inbox"); null for the root files. */
function folderOf(rel: string): string | null {
  const m = /^lib\/([^/]+)\//.exec(rel);
  return m && libFolders.includes(m[1]) ? m[1] : null;
}

/** Each lib/ module another module imports, as "from-file → module". */
function libImports(files: string[]): { from: string; to: string }[] {
  return files.flatMap((file) =>
    specifiers(file)
      .map((s) => target(file, s))
      .filter((t): t is string => t?.startsWith("lib/") === true)
      .map((to) => ({ from: path.relative(root, file).split(path.sep).join("/"), to })),
  );
}

describe("imports between the folders of lib/", () => {
  it("has a row for every folder of lib/, and names only folders that exist", () => {
    expect(Object.keys(MAY_IMPORT).sort()).toEqual(libFolders);
    const unknown = Object.entries(MAY_IMPORT).flatMap(([f, to]) =>
      to.filter((t) => !libFolders.includes(t) || t === f).map((t) => `${f} → ${t}`),
    );
    expect(unknown).toEqual([]);
  });

  it("imports across folders only where MAY_IMPORT allows", () => {
    const offenders = libImports(sources(lib))
      .map(({ from, to }) => ({ from, to, a: folderOf(from), b: folderOf(`${to}/`) }))
      .filter(({ a, b }) => a && b && a !== b && !MAY_IMPORT[a]?.includes(b))
      .map(({ from, to, a, b }) => `${a} → ${b}: ${from} imports ${to}`);
    expect(offenders).toEqual([]);
  });

  it("has no loop: the folders can be put in an order where each imports only folders before it", () => {
    const placed: string[] = [];
    const left = new Set(Object.keys(MAY_IMPORT));
    while (left.size > 0) {
      const ready = [...left].filter((f) => MAY_IMPORT[f].every((t) => !left.has(t)));
      if (ready.length === 0) break;
      for (const f of ready) {
        placed.push(f);
        left.delete(f);
      }
    }
    expect([...left].sort(), "folders on a loop of imports").toEqual([]);
    expect(placed).toHaveLength(libFolders.length);
  });

  it("has the shared files at the root of lib/ import no folder (so every folder may use them)", () => {
    const rootFiles = readdirSync(lib)
      .filter((n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$|\.d\.ts$/.test(n))
      .map((n) => path.join(lib, n));
    const offenders = libImports(rootFiles).filter(({ to }) => folderOf(`${to}/`));
    expect(offenders).toEqual([]);
  });
});

describe("what db/ and the benchmarks take from lib/", () => {
  it("db/ imports from lib/ only lib/env, lib/data-dir and lib/startup-error", () => {
    const reached = [...new Set(libImports(sources(path.join(root, "db"))).map(({ to }) => to))].sort();
    expect(reached.filter((t) => !DB_MAY_IMPORT.includes(t))).toEqual([]);
  });

  it("scripts/bench-*.ts import from lib/ only the modules they load today", () => {
    const benches = readdirSync(path.join(root, "scripts"))
      .filter((n) => /^bench-.*\.ts$/.test(n))
      .map((n) => path.join(root, "scripts", n));
    const reached = [...new Set(libImports(benches).map(({ to }) => to))].sort();
    expect(reached.filter((t) => !BENCH_MAY_IMPORT.includes(t))).toEqual([]);
  });
});
