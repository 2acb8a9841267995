/**
 * One line of progress for a long step of the CLI (the dashboard build, a backup, a restore). On a
 * terminal it is one status line rewritten in place, its elapsed time ticking every second; otherwise
 * (a log file, a service manager) plain lines: one when the status changes, and one every so often
 * while it stays the same, so a quiet log still shows the step is alive.
 */
export interface ProgressOptions {
  /** The output is a terminal. */
  tty: boolean;
  write: (text: string) => void;
  /** Milliseconds from any origin (default performance.now: elapsed time for a person, not a domain time). */
  now?: () => number;
  /** Off a terminal: at least this long between two lines of the same status (default 30 s). */
  plainEveryMs?: number;
  /** The terminal's width: a longer status line is shortened in its title, so it never wraps. */
  columns?: number;
}

export interface Progress {
  /**
   * What the step does now; shown with the elapsed time. A function is asked again at every beat
   * (a count, bytes written): off a terminal it is printed when set and then with the periodic line.
   */
  status(text: string | (() => string)): void;
  /** Re-renders the status line now (on a terminal; a no-op otherwise). */
  refresh(): void;
  /** A line that stays (an error, a warning), printed above the status line. */
  print(line: string): void;
  /** The timer's beat: re-renders the status line, or prints the periodic plain line when due. */
  tick(): void;
  /** Ends the status line; `line` is printed last, when given. */
  finish(line?: string): void;
  elapsedMs(): number;
}

/** 42 s → "0:42", 125 s → "2:05". */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** 1536 → "1.5 KB", 3_400_000 → "3.2 MB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

const CLEAR_LINE = "\r\x1b[2K";

/** `title` opens every line (e.g. "[outreach] Building the dashboard (…)…"). */
export function createProgress(title: string, opts: ProgressOptions): Progress {
  const now = opts.now ?? (() => performance.now());
  const every = opts.plainEveryMs ?? 30_000;
  const t0 = now();
  let current: string | (() => string) = "";
  let lastPlainAt = Number.NEGATIVE_INFINITY;
  let lastPlainText = "";
  let drawn = false;
  let finished = false;
  const elapsed = () => formatElapsed(now() - t0);
  const text = () => (typeof current === "function" ? current() : current);
  const line = () => {
    const t = text();
    return `${title} ${t ? `${t} ` : ""}${elapsed()}`;
  };
  const draw = () => {
    opts.write(CLEAR_LINE + toWidth(line()));
    drawn = true;
  };
  /** The line as wide as the terminal at most: the title gives way, the status and the time stay. */
  const toWidth = (l: string) => {
    const width = (opts.columns ?? 0) - 1;
    if (width <= 0 || l.length <= width) return l;
    const rest = l.slice(title.length);
    const room = width - rest.length - 1;
    return room > 8 ? `${title.slice(0, room)}…${rest}` : l.slice(l.length - width);
  };
  const plain = () => {
    opts.write(`${line()}\n`);
    lastPlainAt = now();
    lastPlainText = text();
  };
  return {
    status(next) {
      if (finished) return;
      current = next;
      if (opts.tty) draw();
      else if (typeof next === "function" || next !== lastPlainText) plain();
    },
    refresh() {
      if (opts.tty && !finished) draw();
    },
    print(l) {
      if (opts.tty && drawn) opts.write(CLEAR_LINE);
      opts.write(`${l}\n`);
      if (opts.tty && !finished) draw();
    },
    tick() {
      if (finished) return;
      if (opts.tty) draw();
      else if (now() - lastPlainAt >= every) plain();
    },
    finish(l) {
      if (finished) return;
      finished = true;
      if (opts.tty && drawn) opts.write(CLEAR_LINE);
      if (l) opts.write(`${l}\n`);
    },
    elapsedMs: () => now() - t0,
  };
}

/** Beats `progress.tick` every second on a terminal (every 5 s otherwise) until the returned function is called. */
export function startTicking(progress: Progress, tty: boolean): () => void {
  const timer = setInterval(() => progress.tick(), tty ? 1000 : 5000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether the CLI's progress goes to a terminal (it writes to stderr). */
export function stderrIsTty(): boolean {
  return Boolean(process.stderr.isTTY);
}

/** Progress options for the CLI's stderr: terminal or not, its width, the writer. */
export function stderrProgress(): Pick<ProgressOptions, "tty" | "columns" | "write"> {
  return { tty: stderrIsTty(), columns: process.stderr.columns, write: (t) => process.stderr.write(t) };
}
