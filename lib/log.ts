/**
 * The logger a request or a job carries in its context (ctx.log): one line per event, with the ids
 * that let an operator find it (`mailboxId`, `emailId`, …). Never a password or a message body.
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function line(level: string, message: string, fields?: Record<string, unknown>): string {
  const parts = Object.entries(fields ?? {}).map(([k, v]) => `${k}=${v instanceof Error ? JSON.stringify(v.message) : JSON.stringify(v)}`);
  return [`[${level}]`, message, ...parts].join(" ");
}

/** Lines on stderr: what the launcher and the worker print. */
export const stderrLogger: Logger = {
  info: (m, f) => process.stderr.write(`${line("info", m, f)}\n`),
  warn: (m, f) => process.stderr.write(`${line("warn", m, f)}\n`),
  error: (m, f) => process.stderr.write(`${line("error", m, f)}\n`),
};

/** A logger that keeps its lines (tests assert what was logged). */
export function memoryLogger(): Logger & { lines: { level: string; message: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push({ level, message, fields });
  return { lines, info: at("info"), warn: at("warn"), error: at("error") };
}
