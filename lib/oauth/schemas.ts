import { z } from "zod";

/** POST /mailboxes/oauth/<provider>/start: what the new mailbox gets, and an address to pre-fill at the provider. */
export const startConsentBody = z
  .object({
    loginHint: z.string().trim().max(254).optional(),
    senderName: z.string().trim().max(200).optional(),
    warmupGroup: z.string().trim().max(100).optional(),
    tagIds: z.array(z.string().max(200)).max(50).optional(),
  })
  .strict();

export const consentStartedSchema = z.object({
  url: z.string().describe("The provider's consent page: open it in the browser of the mailbox's owner"),
  provider: z.enum(["GOOGLE", "MICROSOFT"]),
  redirectUri: z.string().describe("The callback the provider returns to (register it in the provider's app)"),
  expiresAt: z.string().describe("The consent must be finished before this time (15 minutes)"),
});

export const oauthProvidersSchema = z.object({
  providers: z.array(
    z.object({
      provider: z.enum(["GOOGLE", "MICROSOFT"]),
      configured: z.boolean(),
      missing: z.array(z.string()).describe("Environment variables still to set"),
      redirectUri: z.string(),
    }),
  ),
});

const address = z.string().max(320);

/** POST /mailboxes/oauth/<provider>/bulk: the addresses to connect (one domain's or tenant's), and what each mailbox gets. */
export const bulkConnectBody = z
  .object({
    emails: z.array(address).min(1).max(1000),
    /** Microsoft: the consented tenant (optional when the workspace has exactly one). */
    tenantId: z.string().trim().min(1).max(100).optional(),
    senderName: z.string().trim().max(200).optional(),
    warmupGroup: z.string().trim().max(100).optional(),
    tagIds: z.array(z.string().max(200)).max(50).optional(),
  })
  .strict();

const jobStatus = z.enum(["QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"]);

export const bulkStartedSchema = z.object({ jobId: z.string(), status: jobStatus, total: z.number().int() });

export const bulkJobSchema = z.object({
  id: z.string(),
  provider: z.enum(["GOOGLE", "MICROSOFT"]),
  tenantId: z.string().nullable(),
  status: jobStatus,
  total: z.number().int(),
  done: z.number().int().describe("Addresses tried so far (connected + failed)"),
  connected: z.number().int(),
  failed: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  results: z.array(
    z.object({
      email: z.string(),
      status: z.enum(["PENDING", "CONNECTED", "FAILED"]),
      mailboxId: z.string().nullable(),
      created: z.boolean().nullable().describe("true: a new mailbox; false: an existing one reconnected (history and warmup kept)"),
      error: z.string().nullable().describe("Why the address could not be connected"),
    }),
  ),
});

/** PUT /mailboxes/oauth/google/service-account: the JSON key file as Google Cloud downloads it (an object, or its text). */
export const serviceAccountBody = z.object({ key: z.union([z.record(z.string(), z.unknown()), z.string().max(30_000)]) }).strict();

export const serviceAccountSchema = z.object({
  clientEmail: z.string(),
  clientId: z.string().nullable().describe("Authorize this client id for the scope in the Google Admin console (domain-wide delegation)"),
  privateKeyId: z.string().nullable(),
  scope: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const adminConsentBody = z.object({ tenant: z.string().trim().min(1).max(100).optional() }).strict();

export const adminConsentStartedSchema = z.object({
  url: z
    .string()
    .describe("Microsoft's admin-consent page: a Global Administrator (or Privileged Role Administrator) of the tenant opens it"),
  tenant: z.string(),
  redirectUri: z.string(),
  expiresAt: z.string(),
});

export const tenantsSchema = z.object({ tenants: z.array(z.object({ tenantId: z.string(), consentedAt: z.string() })) });
