import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { checkCredentials, ensureSetupToken, firstRunSignup, firstRunState } from "./users";

describe("first run", () => {
  it("lets only the holder of the setup token create the first owner, once", async () => {
    const db = getDb();
    expect(await firstRunState(db)).toEqual({ needsSetup: true });
    const token = await ensureSetupToken(db);
    expect(token).toBeTruthy();
    expect(await ensureSetupToken(db)).toBe(token); // stable until used
    await expect(
      firstRunSignup(db, { email: "o@example.com", password: "password123", workspaceName: "Acme", token: "wrong" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      firstRunSignup(db, { email: "o@example.com", password: "short", workspaceName: "Acme", token: token! }),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    const r = await firstRunSignup(db, { email: "o@example.com", password: "password123", workspaceName: "Acme", token: token! });
    expect(r.createdUser).toBe(true);
    expect(await firstRunState(db)).toEqual({ needsSetup: false });
    await expect(
      firstRunSignup(db, { email: "p@example.com", password: "password123", workspaceName: "B", token: token! }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await ensureSetupToken(db)).toBeUndefined();
  });

  it("stores a slow hash and checks passwords against it", async () => {
    const db = getDb();
    const user = await checkCredentials(db, "O@example.com", "password123");
    expect(user?.email).toBe("o@example.com");
    expect(user?.passwordHash).toMatch(/^\$2[aby]\$/);
    expect(await checkCredentials(db, "o@example.com", "password124")).toBeUndefined();
  });
});
