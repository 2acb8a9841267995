import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

const root = path.resolve(import.meta.dirname, "../..");

export interface Child {
  proc: ChildProcess;
  port: number;
  /** The last 4,000 characters the child printed on stderr. */
  stderrTail(): string;
  /** Calls `fn` with every later line the child prints on stdout. */
  onLine(fn: (line: string) => void): void;
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
  const listeners: ((line: string) => void)[] = [];
  const stop = () =>
    new Promise<void>((done) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return done();
      proc.once("exit", () => done());
      proc.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    lines.on("line", (line) => {
      const m = /^listening (\d+)/.exec(line);
      if (m) resolve({ proc, port: Number(m[1]), onLine: (fn) => void listeners.push(fn), stderrTail: () => err, stop });
      else for (const fn of listeners) fn(line);
    });
    proc.once("exit", (code) => reject(new Error(`${script} exited with ${code}: ${err}`)));
  });
}
