import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withToolTable } from "../lib/api/mcp/doc-table";

/** npx tsx scripts/gen-mcp-docs.ts — rewrites the tool table of docs/mcp.md from the tool list. */
const file = path.resolve(import.meta.dirname, "..", "docs/mcp.md");
writeFileSync(file, withToolTable(readFileSync(file, "utf8")));
console.log("wrote the tool table of docs/mcp.md");
