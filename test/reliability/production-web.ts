import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { ensureBuild } from "../../lib/cli/launch";
import { freePort } from "../peers/ports";

const root = path.resolve(import.meta.dirname, "../..");

export interface ProductionWeb {
  proc: ChildProcess;
  port: number;
  stderrTail(): string;
  stop(): Promise<void>;
}

/**
 * The web server `outreach start` runs — bin/web-server.mjs, Next on its production build — on the
 * database in `env.DATABASE_URL`. The build is the one `outreach start` makes (lib/cli/launch.ts
 * ensureBuild: none or stale sources → `next build`, else reused; OUTREACH_SKIP_BUILD=1 reuses whatever
 * build is there). Resolves once the server prints its ready line.
 */
export async function startProductionWeb(env: Record<string, string>): Promise<ProductionWeb> {
  await ensureBuild();
  const port = await freePort();
  const proc = spawn(process.execPath, [path.join(root, "bin", "web-server.mjs")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  const stop = () =>
    new Promise<void>((done) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return done();
      proc.once("exit", () => done());
      proc.kill("SIGTERM");
    });
  await new Promise<void>((resolve, reject) => {
    proc.stderr?.on("data", (d) => {
      err = (err + String(d)).slice(-4000);
      if (err.includes(`[web] ready on http://localhost:${port}`)) resolve();
    });
    proc.once("exit", (code) => reject(new Error(`bin/web-server.mjs exited with ${code}: ${err}`)));
  });
  return { proc, port, stderrTail: () => err, stop };
}
