/** npm run docs:config — writes the README's configuration table and docs/configuration.md from lib/env-vars.ts. */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { configurationDoc, withReadmeTable } from "./config-docs";

const root = path.resolve(import.meta.dirname, "..");
const readme = path.join(root, "README.md");
writeFileSync(readme, withReadmeTable(readFileSync(readme, "utf8")));
writeFileSync(path.join(root, "docs", "configuration.md"), configurationDoc());
process.stdout.write("wrote README.md (configuration table) and docs/configuration.md\n");
