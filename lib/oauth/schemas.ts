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
