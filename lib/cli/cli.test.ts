import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { call } from "@/test/helpers";
import { GET as LIST_LEADS, POST as CREATE_LEADS } from "@/app/api/v1/leads/route";

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, "../../bin/outreach.mjs");

async function outreach(...args: string[]) {
  const { stdout } = await run(process.execPath, [bin, ...args], { env: { ...process.env } });
  return JSON.parse(stdout.trim());
}

describe("the outreach CLI", () => {
  it("sets up workspaces repeatably and prints API keys that work", async () => {
    const first = await outreach("setup", "--email", "cli@example.com", "--password", "password123", "--workspace", "Acme", "--json");
    expect(first.userId).toMatch(/^usr_/);
    expect(first.workspaceId).toMatch(/^ws_/);
    // Same email and name again: same user, same workspace (repeatable). Another name: another workspace.
    const again = await outreach("setup", "--email", "CLI@example.com", "--password", "ignored-other", "--workspace", "Acme", "--json");
    expect(again).toEqual(first);
    const second = await outreach("setup", "--email", "cli@example.com", "--password", "ignored-other", "--workspace", "Beta", "--json");
    expect(second.userId).toBe(first.userId);
    expect(second.workspaceId).not.toBe(first.workspaceId);

    const full = await outreach("api-key", "create", "--workspace", "Acme", "--scope", "full", "--name", "cli", "--json");
    expect(full).toMatchObject({ scope: "full", id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^ok_live_/) });
    const read = await outreach("api-key", "create", "--workspace", second.workspaceId, "--scope", "read", "--json");
    expect((await call(CREATE_LEADS, "POST", "/leads", { key: full.key, body: { leads: [{ email: "x@example.com" }] } })).status).toBe(200);
    expect((await call(LIST_LEADS, "GET", "/leads", { key: full.key })).body.total).toBe(1);
    expect((await call(LIST_LEADS, "GET", "/leads", { key: read.key })).body.total).toBe(0); // Beta is another workspace
  }, 180_000); // five CLI processes, each ~2 s to start on a quiet machine, far more on a loaded 2-core one

  it("fails with a message and exit code 1 on bad input", async () => {
    await expect(
      run(process.execPath, [bin, "api-key", "create", "--workspace", "Nope", "--scope", "full"], { env: { ...process.env } }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No workspace with id or name "Nope"'),
    });
    await expect(run(process.execPath, [bin, "setup", "--email", "x@example.com"], { env: { ...process.env } })).rejects.toMatchObject({
      code: 1,
    });
  }, 60_000);
});
