import { accessSync, constants, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir } from "./env";
import { StartupError } from "./startup-error";

/**
 * The data folder, created when missing and checked writable by writing a probe file: the secret,
 * the embedded server's password and (for an ordinary user) its cluster live there.
 */
export function ensureDataDir(): string {
  const dir = dataDir();
  const probe = path.join(dir, `.write-probe-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    writeFileSync(probe, "");
    rmSync(probe, { force: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "error";
    const who = process.getuid ? `user ${process.getuid()}` : "this user";
    throw new StartupError(`data folder ${dir} is not writable by ${who} (${code}) — set OUTREACH_DATA_DIR to a folder you can write`);
  }
  return dir;
}
