import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TOOLS } from "@/lib/api/mcp/tools";
import { withToolTable } from "@/lib/api/mcp/doc-table";

describe("docs/mcp.md", () => {
  const doc = readFileSync(path.resolve(import.meta.dirname, "../../../docs/mcp.md"), "utf8");
  it("carries the tool table generated from the tool list (npx tsx scripts/gen-mcp-docs.ts)", () => {
    expect(withToolTable(doc)).toBe(doc);
    for (const t of TOOLS) expect(doc).toContain(`| \`${t.name}\` |`);
  });
});
