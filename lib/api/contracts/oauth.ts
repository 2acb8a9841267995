import { defineRoute } from "../route";
import {
  adminConsentBody,
  adminConsentStartedSchema,
  bulkConnectBody,
  bulkJobSchema,
  bulkStartedSchema,
  consentStartedSchema,
  oauthProvidersSchema,
  serviceAccountBody,
  serviceAccountSchema,
  startConsentBody,
  tenantsSchema,
} from "../../oauth/schemas";
import * as mr from "./mailbox-responses";

const tag = "Mailboxes";

/**
 * OAuth-connected mailboxes. The consent finishes at GET /api/oauth/<provider>/callback
 * (outside /api/v1: the provider sends the browser there), which saves the mailbox and redirects to the
 * dashboard — or, asked for JSON, answers the mailbox row plus `created` (201 created, 200 replaced).
 * Bulk: Google domain-wide delegation (a service account) and Microsoft admin consent (app-only tokens).
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
  serviceAccountPut: defineRoute({
    method: "PUT",
    path: "/mailboxes/oauth/{provider}/service-account",
    tag,
    access: "write",
    body: serviceAccountBody,
    errors: [404],
    summary:
      "Google only: store the workspace's service account JSON key for domain-wide delegation (the private key sealed at rest). " +
      "400 on key.* when a field is missing or the private key is unusable",
    response: { description: "The service account, without its key", schema: serviceAccountSchema },
  }),
  serviceAccountGet: defineRoute({
    method: "GET",
    path: "/mailboxes/oauth/{provider}/service-account",
    tag,
    access: "read",
    errors: [404],
    summary: "Google only: the workspace's service account (client email and the client id to authorize), never its key",
    response: { description: "The service account", schema: serviceAccountSchema },
  }),
  serviceAccountDelete: defineRoute({
    method: "DELETE",
    path: "/mailboxes/oauth/{provider}/service-account",
    tag,
    access: "write",
    errors: [404],
    summary: "Google only: forget the service account (its delegated mailboxes then fail their next token request)",
    response: { description: "`{ deleted: true }`", schema: mr.serviceAccountDeletedSchema },
  }),
  adminConsent: defineRoute({
    method: "POST",
    path: "/mailboxes/oauth/{provider}/admin-consent",
    tag,
    access: "write",
    body: adminConsentBody,
    bodyOptional: true,
    errors: [404],
    summary:
      "Microsoft only: the admin-consent URL a tenant's admin opens once; the callback records the consented tenant, whose mailboxes " +
      "can then be connected in bulk with app-only tokens",
    response: { description: "`{ url, tenant, redirectUri, expiresAt }`", schema: adminConsentStartedSchema },
  }),
  tenants: defineRoute({
    method: "GET",
    path: "/mailboxes/oauth/{provider}/tenants",
    tag,
    access: "read",
    errors: [404],
    summary: "Microsoft only: the tenants whose admin consented (recorded by the admin-consent callback), oldest first",
    response: { description: "`{ tenants: [{ tenantId, consentedAt }] }`", schema: tenantsSchema },
  }),
  bulkStart: defineRoute({
    method: "POST",
    path: "/mailboxes/oauth/{provider}/bulk",
    tag,
    access: "write",
    body: bulkConnectBody,
    errors: [404],
    summary:
      "Connect many mailboxes at once: Google Workspace with the workspace's service account (domain-wide delegation), Microsoft 365 " +
      "with app-only tokens of a consented tenant. Each address is verified by an XOAUTH2 SMTP and IMAP login; follow the job",
    response: { status: 202, description: "`{ jobId, status, total }`", schema: bulkStartedSchema },
  }),
  bulkJob: defineRoute({
    method: "GET",
    path: "/mailboxes/oauth/{provider}/bulk/{jobId}",
    tag,
    access: "read",
    errors: [404],
    summary: "A bulk connect's status, progress (done, connected, failed of total) and each address's outcome",
    response: { description: "The job", schema: bulkJobSchema },
  }),
  bulkCancel: defineRoute({
    method: "POST",
    path: "/mailboxes/oauth/{provider}/bulk/{jobId}/cancel",
    tag,
    access: "write",
    errors: [404],
    summary: "Stop a bulk connect: addresses not tried yet stay PENDING; mailboxes already connected stay connected",
    response: { description: "The job", schema: bulkJobSchema },
  }),
};
