#!/usr/bin/env node
// The `outreach` command (package.json bin). Runs the TypeScript CLI through tsx from the project root.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
process.env.OUTREACH_ROOT ??= root;
process.chdir(root);
register({ tsconfig: resolve(root, "tsconfig.json") });
await import("../lib/cli/main.ts");
