import { ROLES } from "../../roles";
import { z } from "zod";
import { checkStatusEnum } from "../../../db/schema";
import { mailboxSchema } from "../../mailboxes/schemas";
import { tagSchema } from "../../tags/tags";

/** Response schemas of the mailbox, domain and account routes (mailboxes.ts, account.ts, oauth.ts). */

const int = () => z.number().int();

export const bulkImportResultSchema = z.object({
  created: int(),
  updated: int(),
  failed: z.array(z.object({ index: int(), email: z.string(), error: z.string(), smtpResponseCode: int().optional() })),
  mailboxes: z.array(mailboxSchema),
});
export const bulkDailyCapResultSchema = z.object({ updated: int(), notFound: z.array(z.string()) });
export const mailboxTestSendSchema = z.object({ sent: z.boolean(), messageId: z.string(), response: z.string(), sentAt: z.string() });
export const mailboxTagAttachedSchema = z.object({ mailboxId: z.string(), tag: tagSchema, attached: z.boolean() });
export const mailboxTagRemovedSchema = z.object({ mailboxId: z.string(), tagId: z.string(), removed: z.boolean() });
export const serviceAccountDeletedSchema = z.object({ deleted: z.literal(true) });

const check = z.enum(checkStatusEnum.enumValues);
/** A sending domain with its DNS checks. */
export const domainSchema = z.object({
  id: z.string().describe("`dom_…`"),
  domain: z.string(),
  mailboxes: int().describe("Mailboxes on this domain"),
  spfStatus: check,
  dkimStatus: check,
  dmarcStatus: check,
  mxStatus: check,
  blacklistStatus: check,
  checks: z.record(z.string(), z.unknown()).describe("The raw results of the last check, per kind"),
  dkimSelectors: z.array(z.string()),
  lastCheckedAt: z.string().nullable(),
  createdAt: z.string(),
});
export const domainBulkCheckSchema = z.object({ checked: int(), notFound: z.array(z.string()), domains: z.array(domainSchema) });
export const domainBulkDeleteSchema = z.object({
  deleted: int(),
  notFound: z.array(z.string()),
  conflicts: z.array(z.object({ id: z.string(), domain: z.string(), reason: z.string() })),
});

const role = z.enum(ROLES);
export const accountSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
  workspace: z.object({ id: z.string(), name: z.string() }),
  role,
  workspaces: z.array(z.object({ id: z.string(), name: z.string(), role })),
});
/** An API key's record; the secret is never shown again after creation. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(["read", "full"]),
  prefix: z.string(),
  createdBy: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
  status: z.enum(["active", "expired", "revoked"]),
});
export const apiKeysSchema = z.object({ apiKeys: z.array(apiKeySchema) });
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string().describe("The secret `ok_live_…`, shown this once") });
