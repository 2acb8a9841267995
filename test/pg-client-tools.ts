import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Makes sure pg_dump and pg_restore of the embedded PostgreSQL's major version exist before a backup
 * test: scripts/pg-client-tools.sh answers at once when they are installed or were built before, and
 * otherwise builds them once for this machine (a few minutes; cached outside the clone), so a fresh
 * clone's `npm test` needs nothing installed beforehand. Returns the folder holding them.
 */
export function ensurePgClientTools(): string {
  return execFileSync("bash", [path.join(root, "scripts/pg-client-tools.sh")], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
}
