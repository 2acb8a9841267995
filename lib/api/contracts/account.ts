import { z } from "zod";
import { defineRoute } from "../route";
import * as mr from "./mailbox-responses";

export const createApiKeyBody = z.object({
  name: z.string().trim().max(100).optional(),
  scope: z.enum(["read", "full"]),
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional().describe("ISO date-time; omitted or null: never expires"),
});

export const accountRoutes = {
  me: defineRoute({
    method: "GET",
    path: "/account",
    tag: "Account",
    access: "read",
    credential: "session",
    role: "client",
    summary: "The signed-in user, the current workspace and the user's workspaces (session only)",
    response: { description: "`{ user, workspace, role, workspaces }`", schema: mr.accountSchema },
  }),
  listKeys: defineRoute({
    method: "GET",
    path: "/account/api-keys",
    tag: "Account",
    access: "read",
    credential: "session",
    summary: "API keys of the workspace (session only; an API key gets 403)",
    response: { description: "`{ apiKeys }`", schema: mr.apiKeysSchema },
  }),
  createKey: defineRoute({
    method: "POST",
    path: "/account/api-keys",
    tag: "Account",
    access: "write",
    credential: "session",
    body: createApiKeyBody,
    summary: "Create an API key. The key is in the response once and never again",
    response: { status: 201, description: "The key record plus `key`", schema: mr.createdApiKeySchema },
  }),
  revokeKey: defineRoute({
    method: "DELETE",
    path: "/account/api-keys/{id}",
    tag: "Account",
    access: "write",
    credential: "session",
    summary: "Revoke an API key (it answers 401 from then on)",
    response: { description: "The revoked key record", schema: mr.apiKeySchema },
  }),
};
