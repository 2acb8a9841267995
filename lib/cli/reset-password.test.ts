import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditLog, userSessions } from "@/db/schema";
import { checkCredentials, setupWorkspace } from "@/lib/auth/users";
import { sessionCookie } from "@/test/helpers";

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, "../../bin/outreach.mjs");
// No system mailer: the operator's reset needs none.
const env = () => {
  const e = { ...process.env };
  delete e.SYSTEM_SMTP_URL;
  return e;
};

const openSessions = (userId: string) =>
  getDb()
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt)));

describe("outreach reset-password", () => {
  it("sets a generated password printed once, or the given one, and signs out every session", async () => {
    const { userId } = await setupWorkspace(getDb(), { email: "locked-out@example.com", password: "forgotten-1", workspaceName: "Reset" });
    await sessionCookie(userId);
    await sessionCookie(userId);
    expect(await openSessions(userId)).toHaveLength(2);

    const { stdout } = await run(process.execPath, [bin, "reset-password", "--email", "LOCKED-OUT@example.com", "--json"], { env: env() });
    const out = JSON.parse(stdout.trim());
    expect(out).toMatchObject({ userId, email: "locked-out@example.com", sessionsEnded: 2 });
    expect(out.password.length).toBeGreaterThanOrEqual(20);
    expect(await checkCredentials(getDb(), "locked-out@example.com", out.password)).toBeDefined();
    expect(await checkCredentials(getDb(), "locked-out@example.com", "forgotten-1")).toBeUndefined();
    expect(await openSessions(userId)).toEqual([]);

    const given = await run(process.execPath, [bin, "reset-password", "--email", "locked-out@example.com", "--password", "chosen-pass-9"], {
      env: env(),
    });
    expect(given.stdout).toContain("password of locked-out@example.com set");
    expect(given.stdout).not.toContain("chosen-pass-9");
    expect(await checkCredentials(getDb(), "locked-out@example.com", "chosen-pass-9")).toBeDefined();
    const rows = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectUserId, userId), eq(auditLog.action, "auth.password_reset")));
    expect(rows.map((r) => r.detail.via)).toEqual(["cli", "cli"]);
    expect(JSON.stringify(rows)).not.toContain(out.password);
  }, 120_000);

  it("fails with a message for an unknown email, a short password and a missing --email", async () => {
    await expect(run(process.execPath, [bin, "reset-password", "--email", "nobody@example.com"], { env: env() })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("nobody@example.com not found"),
    });
    await setupWorkspace(getDb(), { email: "short@example.com", password: "password123", workspaceName: "S" });
    await expect(
      run(process.execPath, [bin, "reset-password", "--email", "short@example.com", "--password", "abc"], { env: env() }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("at least 8 characters") });
    await expect(run(process.execPath, [bin, "reset-password"], { env: env() })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("needs --email"),
    });
  }, 120_000);
});
