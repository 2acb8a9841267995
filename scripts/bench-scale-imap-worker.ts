import { type ChildProcess, fork } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";

/**
 * The reply sync's scale bench, its worker side: `startWorker` forks this file as one worker process
 * (the sidecar's local runner, inngest/runner.ts, with only the inbox-sync job, ticking every second as
 * inngest/worker.ts does), and `usageOf` reads that process's RSS, CPU time and sockets from /proc.
 */

export interface Cycle {
  mailboxes: number;
  stored: number;
  failed: number;
  openConnections: number;
  ms: number;
}

export interface Worker {
  pid: number;
  /** Every cycle the worker reported. */
  cycles: Cycle[];
  exited(): boolean;
  /** Its last lines on stderr (for a failure's message). */
  stderr(): string;
  stop(): Promise<void>;
}

/** One worker process with the environment given (the bench's database, secret and IMAP settings). */
export function startWorker(env: NodeJS.ProcessEnv): Worker {
  const child: ChildProcess = fork(path.join(import.meta.dirname, "bench-scale-imap-worker.ts"), ["--worker"], {
    env,
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  const cycles: Cycle[] = [];
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  child.on("message", (m: { type?: string } & Cycle) => {
    if (m.type === "cycle") cycles.push(m);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    pid: child.pid!,
    cycles,
    stderr: () => err,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async stop() {
      if (child.exitCode === null) child.send("stop");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface Usage {
  rssMb: number;
  /** User + system CPU time so far. */
  cpuMs: number;
  sockets: number;
}

const TICK_MS = 1000 / 100; // USER_HZ

/** A process's resident memory, CPU time and open sockets, from /proc. */
export function usageOf(pid: number): Usage {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const cpuMs = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  let sockets = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) sockets++;
    } catch {
      // closed meanwhile
    }
  }
  return { rssMb: rssKb / 1024, cpuMs, sockets };
}

/** The worker process itself: the local runner with the inbox-sync job, each cycle reported to the bench. */
async function runWorker(): Promise<void> {
  const { getDb } = await import("@/db/client");
  const { LocalRunner } = await import("@/inngest/runner");
  const { inboxSyncJob } = await import("@/inngest/functions/inbox-sync");
  const { systemClock } = await import("@/lib/clock");
  const { sidecarConnections } = await import("@/lib/inbox/connections");
  const reported = {
    ...inboxSyncJob,
    run: async (ctx: Parameters<typeof inboxSyncJob.run>[0]) => {
      const t = performance.now();
      const r = (await inboxSyncJob.run(ctx)) as Omit<Cycle, "ms">;
      process.send?.({ type: "cycle", ...r, ms: performance.now() - t });
      return r;
    },
  };
  const runner = new LocalRunner(getDb(), systemClock, [reported], (line) => process.stderr.write(`${line}\n`));
  let stop = false;
  process.on("message", (m) => {
    if (m === "stop") stop = true;
  });
  while (!stop) {
    await runner.tick();
    await new Promise((r) => setTimeout(r, 1000));
  }
  await sidecarConnections.closeAll();
  process.exit(0);
}

if (process.argv[2] === "--worker") {
  runWorker().catch((e) => {
    process.stderr.write(`worker failed: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  });
}
