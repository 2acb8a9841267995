import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The dashboard (components/ and app/) keeps the same size rules as lib/: no file over 400 lines, no line over
 * 200 characters, no function over 80 lines (first to last line inclusive). Offenders are named by file and
 * function, never by line number, so edits elsewhere in a file do not move them.
 */
const root = path.resolve(import.meta.dirname, "..", "..");

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

const files = ["components", "app"]
  .flatMap((d) => sources(path.join(root, d)))
  .map((p) => ({ rel: path.relative(root, p).split(path.sep).join("/"), text: readFileSync(p, "utf8") }));

type Fn = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;
const isFn = (n: ts.Node): n is Fn =>
  ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n);

/** What a reader would call the function: its own name, the variable or property it is assigned to, or where it is passed. */
function ownName(n: Fn, src: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isFunctionExpression(n)) && n.name) return n.name.getText(src);
  const p = n.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText(src);
  if (ts.isCallExpression(p)) {
    const callee = p.expression.getText(src);
    // A component wrapped in forwardRef/memo takes the name of the variable holding the call.
    if (ts.isVariableDeclaration(p.parent)) return p.parent.name.getText(src);
    return `${callee}(…)`;
  }
  if (ts.isJsxExpression(p) && ts.isJsxAttribute(p.parent)) return `${p.parent.name.getText(src)}={…}`;
  if (ts.isExportAssignment(p)) return "default";
  return "(anonymous)";
}

/** Each function over 80 lines, as `file:Outer/inner` (names of the enclosing functions joined by slashes). */
function longFunctions(): string[] {
  const long: string[] = [];
  for (const f of files) {
    const src = ts.createSourceFile(
      f.rel,
      f.text,
      ts.ScriptTarget.Latest,
      true,
      f.rel.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const visit = (n: ts.Node, outer: string[]) => {
      let names = outer;
      if (isFn(n)) {
        names = [...outer, ownName(n, src)];
        const first = src.getLineAndCharacterOfPosition(n.getStart(src)).line;
        const last = src.getLineAndCharacterOfPosition(n.getEnd()).line;
        if (last - first + 1 > 80) long.push(`${f.rel}:${names.join("/")}`);
      }
      ts.forEachChild(n, (c) => visit(c, names));
    };
    visit(src, []);
  }
  return long;
}

const offenders = () => [
  ...files.filter((f) => f.text.split("\n").length > 400).map((f) => `${f.rel} (file over 400 lines)`),
  ...files.filter((f) => f.text.split("\n").some((l) => l.length > 200)).map((f) => `${f.rel} (line over 200 characters)`),
  ...longFunctions(),
];

describe("the shape of components/ and app/", () => {
  it("has no file over 400 lines, no line over 200 characters and no function over 80 lines", () => {
    expect(offenders()).toEqual([]);
  });
});
