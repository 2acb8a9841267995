import { createPrivateKey, createSign, type KeyObject } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { googleServiceAccounts } from "../../db/schema";
import { type Ctx, requireAccess } from "../ctx";
import { decryptSecret, encryptSecret } from "../crypto/secretbox";
import { NotFoundError, ValidationError } from "../errors";
import { OAuthError, type TokenResponse, tokenRequest } from "./http";
import { oauthEnv } from "./providers";

/** Google's one scope for IMAP and SMTP; a delegated token needs nothing else. */
export const GOOGLE_MAIL_SCOPE = "https://mail.google.com/";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** Google accepts assertions valid for at most an hour. */
const ASSERTION_TTL_S = 3600;

/** The fields of a service account JSON key we use (the file Google Cloud downloads; other fields are ignored). */
export const serviceAccountKey = z.object({
  type: z.literal("service_account").optional(),
  client_email: z.email().max(320),
  client_id: z.string().trim().max(100).optional(),
  private_key_id: z.string().trim().max(100).optional(),
  private_key: z.string().min(100).max(20_000).includes("PRIVATE KEY"),
});

/** The key file as sent: its JSON object, or the file's text. Each problem is a 400 on `key.<field>`. */
export function parseKeyFile(raw: unknown): z.infer<typeof serviceAccountKey> {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw ValidationError.field("key", "is not JSON: paste the service account's key file as downloaded from Google Cloud");
    }
  }
  const r = serviceAccountKey.safeParse(value);
  if (r.success) return r.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of r.error.issues) {
    const field = ["key", ...issue.path.map(String)].join(".");
    fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message];
  }
  throw new ValidationError(`Not a usable service account key: ${Object.keys(fieldErrors).join(", ")}`, { fieldErrors, formErrors: [] });
}

/** Where the JWT bearer grant is posted. GOOGLE_JWT_TOKEN_URL points tests at a local peer; the key's own token_uri is not followed. */
export function googleJwtTokenUrl(): string {
  return oauthEnv("GOOGLE_JWT_TOKEN_URL") ?? "https://oauth2.googleapis.com/token";
}

function readPrivateKey(pem: string): KeyObject {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== "rsa") throw new Error("not an RSA key");
    return key;
  } catch (e) {
    throw ValidationError.field("key.private_key", `is not a usable RSA private key (${(e as Error).message})`);
  }
}

/** PUT /mailboxes/oauth/google/service-account: stores (or replaces) the workspace's key, the private key sealed. */
export async function putServiceAccount(ctx: Ctx, key: z.infer<typeof serviceAccountKey>) {
  requireAccess(ctx, "write");
  readPrivateKey(key.private_key);
  const now = ctx.clock.now();
  const values = {
    clientEmail: key.client_email,
    clientId: key.client_id ?? null,
    privateKeyId: key.private_key_id ?? null,
    privateKeyEnc: encryptSecret(key.private_key),
    updatedAt: now,
  };
  await ctx.db
    .insert(googleServiceAccounts)
    .values({ workspaceId: ctx.workspaceId, ...values, createdAt: now })
    .onConflictDoUpdate({ target: googleServiceAccounts.workspaceId, set: values });
  return getServiceAccount(ctx);
}

/** The workspace's service account as the API shows it: never the private key. */
export async function getServiceAccount(ctx: Ctx) {
  const row = await loadServiceAccount(ctx.db, ctx.workspaceId);
  if (!row) throw new NotFoundError("Google service account");
  return {
    clientEmail: row.clientEmail,
    clientId: row.clientId,
    privateKeyId: row.privateKeyId,
    scope: GOOGLE_MAIL_SCOPE,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function deleteServiceAccount(ctx: Ctx): Promise<{ deleted: true }> {
  requireAccess(ctx, "write");
  const gone = await ctx.db.delete(googleServiceAccounts).where(eq(googleServiceAccounts.workspaceId, ctx.workspaceId)).returning();
  if (!gone.length) throw new NotFoundError("Google service account");
  return { deleted: true };
}

type ServiceAccount = typeof googleServiceAccounts.$inferSelect;

export async function loadServiceAccount(db: DbOrTx, workspaceId: string): Promise<ServiceAccount | undefined> {
  const [row] = await db.select().from(googleServiceAccounts).where(eq(googleServiceAccounts.workspaceId, workspaceId));
  return row;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** The RS256 assertion of RFC 7523: issued by the service account, acting as `subject` (the mailbox), for the mail scope. */
export function signAssertion(
  sa: Pick<ServiceAccount, "clientEmail" | "privateKeyId" | "privateKeyEnc">,
  subject: string,
  now: Date,
): string {
  const iat = Math.floor(now.getTime() / 1000);
  const header = { alg: "RS256", typ: "JWT", ...(sa.privateKeyId ? { kid: sa.privateKeyId } : {}) };
  const claims = { iss: sa.clientEmail, sub: subject, scope: GOOGLE_MAIL_SCOPE, aud: googleJwtTokenUrl(), iat, exp: iat + ASSERTION_TTL_S };
  const input = `${b64(header)}.${b64(claims)}`;
  const signature = createSign("RSA-SHA256")
    .update(input)
    .sign(readPrivateKey(decryptSecret(sa.privateKeyEnc)));
  return `${input}.${signature.toString("base64url")}`;
}

/**
 * A delegated access token for `email` (domain-wide delegation): the workspace's service account signs
 * a JWT bearer grant naming the mailbox. Google's `unauthorized_client` (the client id is not authorized
 * for the scope in the domain's Admin console) and `invalid_grant` (no such user) come back as OAuthError.
 */
export async function delegatedToken(db: DbOrTx, workspaceId: string, email: string, now: Date): Promise<TokenResponse> {
  const sa = await loadServiceAccount(db, workspaceId);
  if (!sa) throw new OAuthError("refused", "The workspace has no Google service account for domain-wide delegation; add its key again");
  const endpoint = { name: "Google", tokenUrl: googleJwtTokenUrl() };
  return tokenRequest(endpoint, { grant_type: JWT_BEARER, assertion: signAssertion(sa, email, now) });
}
