import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * One name per idea (docs/architecture.md, "Names"): a thing is imported from the module that defines
 * it, never through a second path that re-exports it, and two files in neighbouring folders of lib/
 * share a basename only when the name is a role that means the same in every folder.
 */
const root = path.resolve(import.meta.dirname, "..", "..");

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|tsx|mts)$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

const rel = (p: string) => path.relative(root, p).split(path.sep).join("/");

/** index.ts is a folder's deliberate public entry; route.ts, page.tsx and layout.tsx export what Next.js asks for. */
const ENTRY_FILES = new Set(["index.ts", "index.tsx", "route.ts", "page.tsx", "layout.tsx"]);

/**
 * Modules allowed to re-export something defined elsewhere, each with why (none today). The list only
 * shrinks: an entry without a re-export fails.
 */
const REEXPORT_TODO: Record<string, string> = {};

interface ExportShape {
  /** `export … from` lines, and `export { x }` of a name the module imported. */
  reexports: string[];
  /** Whether every statement is an import or a re-export. */
  onlyReexports: boolean;
}

function imported(src: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const s of src.statements) {
    const clause = ts.isImportDeclaration(s) ? s.importClause : undefined;
    if (!clause) continue;
    if (clause.name) names.add(clause.name.text);
    const b = clause.namedBindings;
    if (b && ts.isNamespaceImport(b)) names.add(b.name.text);
    if (b && ts.isNamedImports(b)) for (const e of b.elements) names.add(e.name.text);
  }
  return names;
}

function exportShape(file: string, text: string): ExportShape {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const fromImport = imported(src);
  const reexports: string[] = [];
  let other = 0;
  for (const s of src.statements) {
    if (ts.isImportDeclaration(s)) continue;
    const isReexport =
      ts.isExportDeclaration(s) &&
      (s.moduleSpecifier !== undefined ||
        (s.exportClause !== undefined &&
          ts.isNamedExports(s.exportClause) &&
          s.exportClause.elements.some((e) => fromImport.has((e.propertyName ?? e.name).getText(src)))));
    if (isReexport) reexports.push(s.getText(src).split("\n")[0]);
    else other++;
  }
  return { reexports, onlyReexports: reexports.length > 0 && other === 0 };
}

const modules = ["lib", "components", "app"]
  .flatMap((d) => sources(path.join(root, d)))
  .filter((p) => !ENTRY_FILES.has(path.basename(p)))
  .map((p) => ({ rel: rel(p), shape: exportShape(p, readFileSync(p, "utf8")) }));

describe("one path per export", () => {
  it("has no module in lib/, components/ or app/ that only re-exports", () => {
    const offenders = modules.filter((m) => m.shape.onlyReexports && !(m.rel in REEXPORT_TODO)).map((m) => m.rel);
    expect(offenders).toEqual([]);
  });

  it("has no re-export line outside index.ts barrels", () => {
    const offenders = modules
      .filter((m) => m.shape.reexports.length > 0 && !(m.rel in REEXPORT_TODO))
      .map((m) => `${m.rel}: ${m.shape.reexports.join(" | ")}`);
    expect(offenders).toEqual([]);
  });

  it("keeps the re-export list shrinking: every entry still re-exports (else remove it)", () => {
    const reexporting = new Set(modules.filter((m) => m.shape.reexports.length > 0).map((m) => m.rel));
    expect(Object.keys(REEXPORT_TODO).filter((f) => !reexporting.has(f))).toEqual([]);
  });
});

/**
 * Role names: a basename that names the same part of whichever folder holds it, so two folders may
 * each have one. Every other basename names one idea and is not repeated in neighbouring folders.
 */
const SHARED_NAMES: Record<string, string> = {
  "index.ts": "the folder's public entry point (a barrel)",
  "schemas.ts": "the folder's zod schemas for the bodies and queries its routes take",
  "view.ts": "the folder's serializer: its rows as the API returns them",
  "manage.ts": "the folder's routes that change its rows (create, update, delete, transitions)",
  "job.ts": "one pass of the folder's background job",
  "run.ts": "the folder's worker turn: claims due work with a lease and carries it out",
  "overview.ts": "GET …/overview of the folder: its summary numbers",
  "read.ts": "the folder's read queries (lists and single rows)",
  "record.ts": "writes the folder's own log rows (audit entries, delivery attempts)",
  "send.ts": "the folder's sending side: puts its outgoing messages on the wire",
  "search.ts": "the folder's search over its own rows",
  "providers.ts": "the table of outside services the folder can talk to",
  "http.ts": "the folder's HTTP calls to the outside (lib/net: the guarded client; lib/oauth: the token endpoint)",
  "alerts.ts": "alerts (lib/alerts) — in another folder, the alert kinds that folder raises about its subjects",
  "files.ts": "stored files (lib/files) — in another folder, how that folder keeps its files there",
  "errors.ts": "the error codes (lib/errors.ts) — in lib/api, the same codes as HTTP responses",
  "paging.ts": "list paging (lib/paging.ts: the query and offset) — in lib/api, the paged response forms",
};

/**
 * Pairs that name two ideas but sit in folders others are changing; each is to be renamed there.
 * The list only shrinks: an entry whose two files no longer both exist fails, so it is removed.
 */
const TODO_RENAME: { files: [string, string]; reason: string }[] = [];

const libFiles = sources(path.join(root, "lib")).map(rel);

/** Directories are neighbours when they are siblings or one is the other's parent. */
function neighbours(a: string, b: string): boolean {
  return path.posix.dirname(a) === path.posix.dirname(b) || path.posix.dirname(a) === b || path.posix.dirname(b) === a;
}

function neighbouringDuplicates(files: string[]): [string, string][] {
  const byName = new Map<string, string[]>();
  for (const f of files) byName.set(path.posix.basename(f), [...(byName.get(path.posix.basename(f)) ?? []), f]);
  const pairs: [string, string][] = [];
  for (const same of byName.values()) {
    for (let i = 0; i < same.length; i++) {
      for (let j = i + 1; j < same.length; j++) {
        if (neighbours(path.posix.dirname(same[i]), path.posix.dirname(same[j]))) pairs.push([same[i], same[j]].sort() as [string, string]);
      }
    }
  }
  return pairs;
}

describe("one name per idea in lib/", () => {
  const pairs = neighbouringDuplicates(libFiles);
  const todo = new Set(TODO_RENAME.map((t) => [...t.files].sort().join(" ~ ")));

  it("has no basename shared by neighbouring folders unless it is a role name", () => {
    const offenders = pairs
      .filter(([a]) => !(path.posix.basename(a) in SHARED_NAMES))
      .map((p) => p.join(" ~ "))
      .filter((p) => !todo.has(p));
    expect(offenders).toEqual([]);
  });

  it("lists only role names that neighbouring folders really share", () => {
    const used = new Set(pairs.map(([a]) => path.posix.basename(a)));
    expect(Object.keys(SHARED_NAMES).filter((n) => !used.has(n))).toEqual([]);
  });

  it("keeps the rename list shrinking: both files of every entry still exist (else remove it)", () => {
    expect(TODO_RENAME.filter((t) => !t.files.every((f) => existsSync(path.join(root, f)))).map((t) => t.files.join(" ~ "))).toEqual([]);
  });
});
