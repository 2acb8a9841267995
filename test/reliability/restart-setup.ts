import { getDb } from "../../db/client";
import { issueApiKey } from "../../lib/auth/api-keys";
import { setupWorkspace } from "../../lib/auth/users";

/** Makes a workspace with an owner and a full key on DATABASE_URL; prints `listening 0`, then `key <the key>`. */
const { userId, workspaceId } = await setupWorkspace(getDb(), {
  email: "owner@restart.test",
  password: "password123",
  workspaceName: "restart",
});
const { key } = await issueApiKey(getDb(), { workspaceId, userId, scope: "full" }, new Date());
process.stdout.write("listening 0\n");
setTimeout(() => process.stdout.write(`key ${key}\n`), 50);
process.on("SIGTERM", () => process.exit(0));
setInterval(() => {}, 1000);
