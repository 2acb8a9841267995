import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface Child {
  proc: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Starts `script` (TypeScript, through tsx) with this process's environment plus `env`; resolves on its `listening <port>` line. */
export function startChild(script: string, env: Record<string, string> = {}): Promise<Child> {
  const proc = spawn(process.execPath, ["--import", "tsx", path.join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  proc.stderr?.on("data", (d) => {
    err = (err + String(d)).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout?.on("data", (d) => {
      out += String(d);
      const m = /listening (\d+)/.exec(out);
      if (m) {
        const stop = () =>
          new Promise<void>((done) => {
            if (proc.exitCode !== null) return done();
            proc.once("exit", () => done());
            proc.kill("SIGTERM");
          });
        resolve({ proc, port: Number(m[1]), stop });
      }
    });
    proc.once("exit", (code) => reject(new Error(`${script} exited with ${code}: ${err}`)));
  });
}
