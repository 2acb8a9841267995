import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
// The other rules of the code's shape, each in its own module, all run by this one test file:
import "./structure/dashboard"; // components/ and app/ under the same size rules as lib/
import "./structure/imports"; // which lib/ folder may import which (no cycles), db/ and the benchmarks' reach
import "./structure/naming"; // one name per idea, no re-export modules
import "./structure/protocol"; // the mail-protocol edge: only lib/mail speaks IMAP and SMTP
import "./structure/settings"; // one settings module: only lib/env reads process.env, documented settings

/**
 * Rules of the code's shape that no behaviour test would notice breaking: the domain code
 * does not reach into the HTTP edge or the job drivers, raw query results are never force-cast, time
 * comes from the injected clock, logs go through the context's logger, Drizzle's internals stay
 * private, and no module grows past what a reader can hold.
 */
const lib = path.resolve(import.meta.dirname, "..", "lib");

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    // Declarations (lib/client/schema.d.ts, generated from the OpenAPI document) hold no code to shape.
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

const files = sources(lib).map((p) => ({ rel: path.relative(lib, p), text: readFileSync(p, "utf8") }));
/** Each module's syntax tree, parsed once for the checks that walk it (~1 s for all of lib/). */
let trees: { rel: string; src: ts.SourceFile }[] | undefined;
const parsed = () => (trees ??= files.map((f) => ({ rel: f.rel, src: ts.createSourceFile(f.rel, f.text, ts.ScriptTarget.Latest, true) })));

describe("the shape of lib/", () => {
  it("has domain modules that import neither lib/api nor inngest/", () => {
    const offenders = files
      .filter((f) => !f.rel.startsWith(`api${path.sep}`))
      .filter((f) => /from "(\.\.\/)+(api|inngest)\/|from "@\/(lib\/api|inngest)\//.test(f.text))
      .map((f) => f.rel);
    expect(offenders).toEqual([]);
  });

  it("casts no query result with `as unknown as` (db/bulk.ts selectRows is the one typed place)", () => {
    expect(files.filter((f) => f.text.includes("as unknown as")).map((f) => f.rel)).toEqual([]);
  });

  it("reads the time only from the injected clock (lib/clock.ts is where the system's time comes in)", () => {
    const offenders = files.filter((f) => f.rel !== "clock.ts" && /Date\.now\(\)|new Date\(\)/.test(f.text)).map((f) => f.rel);
    expect(offenders).toEqual([]);
  });

  it("logs through the context's logger, never console (the API edge's last-resort log of an unexpected error aside)", () => {
    const offenders = files.filter((f) => f.rel !== path.join("api", "errors.ts") && /\bconsole\.\w+\(/.test(f.text)).map((f) => f.rel);
    expect(offenders).toEqual([]);
  });

  it("does not reach into Drizzle's private internals (`db._`)", () => {
    const dbDir = path.resolve(lib, "..", "db");
    const all = [...files, ...sources(dbDir).map((p) => ({ rel: path.relative(lib, p), text: readFileSync(p, "utf8") }))];
    expect(all.filter((f) => /\w\._\.\w/.test(f.text)).map((f) => f.rel)).toEqual([]);
  });

  it("has no module over 400 lines and no line over 200 characters", () => {
    expect(files.filter((f) => f.text.split("\n").length > 400).map((f) => f.rel)).toEqual([]);
    expect(files.filter((f) => f.text.split("\n").some((l) => l.length > 200)).map((f) => f.rel)).toEqual([]);
  });

  it("exports no type with a field named m or c (names say what they hold)", () => {
    const cryptic: string[] = [];
    for (const { rel, src } of parsed()) {
      for (const st of src.statements) {
        const exported = ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        if (!exported || !(ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st))) continue;
        const visit = (n: ts.Node) => {
          if (ts.isPropertySignature(n) && ts.isIdentifier(n.name) && ["m", "c"].includes(n.name.text))
            cryptic.push(`${rel}: ${st.name.text}.${n.name.text}`);
          ts.forEachChild(n, visit);
        };
        visit(st);
      }
    }
    expect(cryptic).toEqual([]);
  });

  it("has no function over 80 lines", () => {
    const long: string[] = [];
    for (const { rel, src } of parsed()) {
      const visit = (n: ts.Node) => {
        if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n)) {
          const first = src.getLineAndCharacterOfPosition(n.getStart()).line;
          const last = src.getLineAndCharacterOfPosition(n.getEnd()).line;
          if (last - first + 1 > 80) long.push(`${rel}:${first + 1} (${last - first + 1} lines)`);
        }
        ts.forEachChild(n, visit);
      };
      visit(src);
    }
    expect(long).toEqual([]);
  });
});
