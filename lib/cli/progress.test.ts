import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dumpedTable } from "./backup";
import { buildTitle, NextBuildFilter } from "./build-progress";
import { findPgTool, parseToolVersion } from "./pg-tools";
import { createProgress, formatElapsed } from "./progress";
import { parseArchiveList, restoredTable } from "./restore";

function recorder(tty: boolean) {
  let t = 0;
  let out = "";
  const p = createProgress("[outreach] Building…", { tty, write: (s) => (out += s), now: () => t });
  return { p, advance: (ms: number) => (t += ms), out: () => out };
}

describe("the progress line", () => {
  it("on a terminal rewrites one line with the elapsed time ticking, and keeps printed lines above it", () => {
    const r = recorder(true);
    r.p.status("compiling");
    r.advance(42_000);
    r.p.tick();
    expect(r.out().split("\r\x1b[2K").filter(Boolean).at(-1)).toBe("[outreach] Building… compiling 0:42");
    r.p.print("  Error: x");
    r.p.finish("[outreach] dashboard built in 2:05");
    expect(r.out()).toContain("  Error: x\n");
    expect(r.out().endsWith("\r\x1b[2K[outreach] dashboard built in 2:05\n")).toBe(true);
    expect(r.out()).not.toContain("\n[outreach] Building… compiling"); // never a new line per beat
  });

  it("off a terminal prints plain lines: one per status change and one every 30 s while it stays the same", () => {
    const r = recorder(false);
    r.p.status("compiling");
    r.advance(5_000);
    r.p.tick(); // too soon for the periodic line
    r.advance(25_000);
    r.p.tick();
    r.p.status("collecting page data");
    expect(r.out()).toBe(
      "[outreach] Building… compiling 0:00\n[outreach] Building… compiling 0:30\n[outreach] Building… collecting page data 0:30\n",
    );
    expect(r.out()).not.toContain("\r");
  });

  it("never wraps on a narrow terminal: the title gives way, the status and the elapsed time stay", () => {
    let out = "";
    const p = createProgress("[outreach] Backing up 127.0.0.1:54329/outreach to outreach-20261202T063005Z.dump:", {
      tty: true,
      columns: 60,
      write: (s) => (out += s),
      now: () => 0,
    });
    p.status("12 of 71 tables, 3.1 MB written");
    const shown = out.split("\r\x1b[2K").filter(Boolean).at(-1)!;
    expect(shown.length).toBeLessThan(60);
    expect(shown).toMatch(/^\[outreach\] Back.*… 12 of 71 tables, 3\.1 MB written 0:00$/);
  });

  it("formats elapsed time as m:ss", () => {
    expect(formatElapsed(125_400)).toBe("2:05");
  });
});

describe("next build's output in phases", () => {
  const lines = [
    "▲ Next.js 16.4.6 (Turbopack)",
    "- Experiments (use with caution):",
    "  · proxyClientMaxBodySize: 33554432",
    "  Creating an optimized production build ...",
    "✓ Compiled successfully in 84s",
    "  Skipping validation of types",
    "  Collecting page data using 1 worker ...",
    "  Generating static pages using 1 worker (43/87) ",
    "  Finalizing page optimization ...",
    "Route (app)",
    "┌ ƒ /",
    "├ ƒ /_not-found",
    "└ ƒ /webhooks/[id]",
  ];

  it("turns the known lines into phases, counts the routes and prints nothing else", () => {
    const statuses: string[] = [];
    const printed: string[] = [];
    const f = new NextBuildFilter({ status: (s) => statuses.push(String(s)), print: (l) => printed.push(l) });
    for (const l of lines) f.push(l);
    expect(statuses).toEqual([
      "compiling",
      "compiled in 84s",
      "collecting page data",
      "generating pages 43/87",
      "finalizing",
      "listing routes",
    ]);
    expect(f.routes).toBe(3);
    expect(printed).toEqual([]);
    expect(f.lines).toHaveLength(lines.length); // all kept for a failure
  });

  it("keeps errors visible: the error line and every line after it", () => {
    const printed: string[] = [];
    const f = new NextBuildFilter({ status: () => {}, print: (l) => printed.push(l) });
    for (const l of [
      "  Creating an optimized production build ...",
      "Error: Turbopack build failed with 1 errors:",
      "./app/x.tsx:3:1",
      "Module not found: Can't resolve 'y'",
    ])
      f.push(l);
    expect(printed).toEqual([
      "  Error: Turbopack build failed with 1 errors:",
      "  ./app/x.tsx:3:1",
      "  Module not found: Can't resolve 'y'",
    ]);
  });

  it("says first start or rebuild, with the estimate", () => {
    expect(buildTitle(true, 2)).toBe("[outreach] Building the dashboard (first start only, about 2 minutes on 2 cores)…");
    expect(buildTitle(false, 4)).toContain(
      "Rebuilding the dashboard (its sources changed; about 2 minutes on 2 cores; this machine has 4)…",
    );
  });
});

describe("the client tools' output", () => {
  it("reads pg_dump's and pg_restore's table lines and an archive's contents", () => {
    expect(dumpedTable('pg_dump: dumping contents of table "public.leads"')).toBe("public.leads");
    expect(restoredTable('pg_restore: processing data for table "public.leads"')).toBe("public.leads");
    const list = [
      ";     Dumped from database version: 18.4",
      ";     Dumped by pg_dump version: 18.6",
      "5; 2615 16385 SCHEMA - drizzle postgres",
      "3520; 0 16390 TABLE DATA public leads postgres",
      "3521; 0 16391 TABLE DATA drizzle __drizzle_migrations postgres",
      "3300; 1259 16400 INDEX public leads_email_idx postgres",
    ].join("\n");
    expect(parseArchiveList(list)).toEqual({ tables: 2, schemas: ["drizzle"], dumpedFrom: "18.4", dumpedBy: "18.6" });
    expect(parseToolVersion("pg_dump (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)")).toEqual({ version: "15.18", major: 15 });
  });

  const bins = mkdtempSync(path.join(tmpdir(), "outreach-pgbin-"));
  afterAll(() => rmSync(bins, { recursive: true, force: true }));

  it("takes the first pg_dump of at least the server's version, and says what to install when there is none", async () => {
    const fake = (dir: string, version: string) => {
      const file = path.join(bins, dir, "pg_dump");
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `#!/bin/sh\necho "pg_dump (PostgreSQL) ${version}"\n`);
      chmodSync(file, 0o755);
      return path.dirname(file);
    };
    const old = fake("old", "15.2");
    const newer = fake("new", "18.6");
    await expect(findPgTool("pg_dump", 18, [old, path.join(bins, "missing"), newer])).resolves.toMatchObject({
      path: path.join(newer, "pg_dump"),
      version: "18.6",
      major: 18,
    });
    await expect(findPgTool("pg_dump", 18, [old])).rejects.toThrow(
      /pg_dump 18 or newer is needed .*found only 15\.2 .*install PostgreSQL 18's .*scripts\/pg-client-tools\.sh/,
    );
  });
});
