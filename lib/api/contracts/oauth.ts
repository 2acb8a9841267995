import { defineRoute } from "../route";
import { consentStartedSchema, oauthProvidersSchema, startConsentBody } from "../../oauth/schemas";

const tag = "Mailboxes";

/**
 * OAuth-connected mailboxes (issue 19). The consent finishes at GET /api/oauth/<provider>/callback
 * (outside /api/v1: the provider sends the browser there), which saves the mailbox and redirects to the
 * dashboard — or, asked for JSON, answers the mailbox row plus `created` (201 created, 200 replaced).
 */
export const oauthRoutes = {
  providers: defineRoute({
    method: "GET",
    path: "/mailboxes/oauth/providers",
    tag,
    access: "read",
    summary: "Which OAuth providers this installation has configured, the variables missing for the others, and their redirect URIs",
    response: { description: "`{ providers: [{ provider, configured, missing, redirectUri }] }`", schema: oauthProvidersSchema },
  }),
  start: defineRoute({
    method: "POST",
    path: "/mailboxes/oauth/{provider}/start",
    tag,
    access: "write",
    body: startConsentBody,
    errors: [404],
    summary:
      "Start connecting a Google Workspace (`google`) or Microsoft 365 (`microsoft`) mailbox: the provider's consent URL (PKCE, a signed state " +
      "bound to the workspace and user, valid 15 minutes). 400 naming the environment variables when the provider is not configured",
    response: { description: "`{ url, provider, redirectUri, expiresAt }`", schema: consentStartedSchema },
  }),
};
