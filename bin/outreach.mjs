#!/usr/bin/env node
// The `outreach` command (package.json bin). Checks Node.js first (with nothing newer than an old Node
// can parse), then runs the TypeScript CLI through tsx from the project root.
import { nodeVersionProblem } from "../lib/cli/node-version.mjs";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write("outreach: " + problem + "\n");
  process.exit(1);
}

const { dirname, resolve } = await import("node:path");
const { fileURLToPath } = await import("node:url");
const { register } = await import("tsx/esm/api");

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
process.env.OUTREACH_ROOT ??= root;
// Paths given on the command line (backup --out, restore FILE) are read from where the command was run.
process.env.OUTREACH_CWD = process.cwd();
process.chdir(root);
register({ tsconfig: resolve(root, "tsconfig.json") });
// The composition root: the CLI (lib/cli) gets the worker (inngest/) handed in, so lib/ never imports inngest/.
const { runCli } = await import("../lib/cli/main.ts");
const { startWorker } = await import("../inngest/worker.ts");
await runCli(process.argv.slice(2), { startWorker });
