import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { createInterface } from "node:readline";
import { StartupError } from "../startup-error";
import { createProgress, formatElapsed, type Progress, startTicking } from "./progress";

/**
 * How long the first build takes, measured on the 2-core development machine with the type check
 * skipped (scripts/first-start-time.ts measures it end to end; docs/benchmarks.md has the figures).
 */
export const BUILD_ESTIMATE = "about 2 minutes on 2 cores";

/** The opening of the build's progress line: what is happening, why, and how long it should take. */
export function buildTitle(first: boolean, cores = availableParallelism()): string {
  const here = cores === 2 ? "" : `; this machine has ${cores}`;
  return first
    ? `[outreach] Building the dashboard (first start only, ${BUILD_ESTIMATE}${here})…`
    : `[outreach] Rebuilding the dashboard (its sources changed; ${BUILD_ESTIMATE}${here})…`;
}

/** A line of `next build` that a person must see: an error or a warning (and, once one came, everything after it). */
const ALARM = /(^|[\s:[(])(error|errors|failed|failure|cannot|can't resolve|not found)\b|⨯|✗|⚠|\bwarn(ing)?\b|ERR!/i;

/**
 * Reads `next build`'s output into phases for the progress line ("compiling", "generating pages
 * 40/87", …). Errors and warnings are printed as they come and, once an error came, every line after
 * it too (a compiler error spans several lines). The route table is summed up as its number of
 * routes. Every line is kept, so a failed build can show its whole output.
 */
export class NextBuildFilter {
  readonly lines: string[] = [];
  routes = 0;
  private alarmed = false;
  compiledIn?: string;

  constructor(private readonly progress: Pick<Progress, "status" | "print">) {}

  push(raw: string): void {
    const line = raw.replace(/\s+$/, "");
    this.lines.push(line);
    const text = line.trim();
    if (this.alarmed) {
      if (text) this.progress.print(`  ${text}`);
      return;
    }
    if (/^[┌├└]/.test(text)) {
      this.routes++;
      return;
    }
    if (/^Route \((app|pages)\)/.test(text)) {
      this.progress.status("listing routes");
      return;
    }
    if (/Skipping validation of types|Skipping linting/.test(text)) return;
    const phase = this.phaseOf(text);
    if (phase) {
      this.progress.status(phase);
      return;
    }
    if (ALARM.test(text) && !/^-?\s*Experiments|^·/.test(text)) {
      this.progress.print(`  ${text}`);
      if (!/\bwarn(ing)?\b|⚠/i.test(text)) this.alarmed = true;
    }
  }

  private phaseOf(text: string): string | undefined {
    if (/Creating an optimized production build/.test(text)) return "compiling";
    const compiled = /Compiled successfully in (.+)$/.exec(text);
    if (compiled) {
      this.compiledIn = compiled[1];
      return `compiled in ${compiled[1]}`;
    }
    if (/Running TypeScript|Linting and checking validity of types/.test(text)) return "checking types";
    if (/Collecting page data/.test(text)) return "collecting page data";
    const pages = /Generating static pages.*\((\d+)\/(\d+)\)/.exec(text);
    if (pages) return `generating pages ${pages[1]}/${pages[2]}`;
    if (/Finalizing page optimization/.test(text)) return "finalizing";
    if (/Collecting build traces/.test(text)) return "collecting build traces";
    return undefined;
  }
}

export interface NextBuildOptions {
  root: string;
  nextBin: string;
  env: NodeJS.ProcessEnv;
  /** No build yet (a first start) rather than a rebuild after a change. */
  first: boolean;
  /** Next's own output as it is, instead of the phases (OUTREACH_DEBUG=1). */
  verbose: boolean;
  tty: boolean;
  columns?: number;
  write: (text: string) => void;
}

/**
 * Runs `next build` with a progress line instead of its output (module counts, the route table): the
 * phase, the elapsed time and the estimate. A failure prints the build's whole output and throws.
 */
export async function runNextBuild(opts: NextBuildOptions): Promise<void> {
  const progress = createProgress(buildTitle(opts.first), { tty: opts.tty, write: opts.write, columns: opts.columns });
  const filter = new NextBuildFilter(progress);
  progress.status("starting");
  const stop = startTicking(progress, opts.tty);
  const child = spawn(process.execPath, [opts.nextBin, "build"], { cwd: opts.root, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
  const read = (stream: NodeJS.ReadableStream) =>
    new Promise<void>((resolve) => {
      const rl = createInterface({ input: stream });
      rl.on("line", (l) => (opts.verbose ? progress.print(l) : filter.push(l)));
      rl.on("close", resolve);
    });
  const streams = Promise.all([read(child.stdout), read(child.stderr)]);
  const code = await new Promise<number>((resolve) => {
    child.on("error", () => resolve(1));
    child.on("close", (c) => resolve(c ?? 1));
  });
  await streams;
  stop();
  const took = formatElapsed(progress.elapsedMs());
  if (code !== 0) {
    progress.finish(`[outreach] the dashboard build failed after ${took}; next build's output:`);
    if (!opts.verbose) for (const l of filter.lines) opts.write(`  ${l}\n`);
    throw new StartupError(`the dashboard build (next build) failed with exit code ${code} — see its output above`);
  }
  const routes = filter.routes ? `, ${filter.routes} routes` : "";
  progress.finish(`[outreach] dashboard built in ${took}${routes}`);
}
