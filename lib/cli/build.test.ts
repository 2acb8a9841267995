import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sourceStamp } from "./build";

const root = mkdtempSync(path.join(tmpdir(), "outreach-stamp-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the build's source stamp", () => {
  it("changes with a source file, not with tests or type declarations (the launcher's build skips the type check)", () => {
    mkdirSync(path.join(root, "lib", "client"), { recursive: true });
    writeFileSync(path.join(root, "lib", "a.ts"), "export const a = 1;\n");
    const before = sourceStamp(root);
    writeFileSync(path.join(root, "lib", "client", "schema.d.ts"), "export interface paths {}\n");
    writeFileSync(path.join(root, "lib", "a.test.ts"), "// a test\n");
    expect(sourceStamp(root)).toBe(before);
    writeFileSync(path.join(root, "lib", "a.ts"), "export const a = 22;\n");
    expect(sourceStamp(root)).not.toBe(before);
  });
});
