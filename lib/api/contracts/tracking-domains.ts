import { defineRoute } from "../route";
import { deletedSchema } from "./responses";
import {
  addTrackingDomainBody,
  patchTrackingDomainBody,
  trackingDomainListSchema,
  trackingDomainSchema,
} from "../../domains/tracking-schemas";

const tag = "Domains";

/** The workspace's own hosts for the open pixel, click redirects and unsubscribe links (Settings → Tracking domains, docs/tracking.md). */
export const trackingDomainRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/settings/tracking-domains",
    tag,
    access: "read",
    role: "member",
    summary: "The workspace's tracking domains with their status (PENDING, VERIFIED, FAILING), CNAME target and which one is the default",
    response: { description: "`{ domains }`", schema: trackingDomainListSchema },
  }),
  create: defineRoute({
    method: "POST",
    path: "/settings/tracking-domains",
    tag,
    access: "write",
    role: "admin",
    body: addTrackingDomainBody,
    summary:
      "Add a tracking domain (owner or admin), PENDING until verified: create a CNAME record from it to cnameTarget. A host name only " +
      "(lower-cased; no scheme, path or port; at least one dot; not APP_URL's host), else 400 VALIDATION_ERROR on domain. 409 when this workspace has it " +
      "already or another workspace has verified it",
    response: { status: 201, description: "The domain", schema: trackingDomainSchema },
  }),
  verify: defineRoute({
    method: "POST",
    path: "/settings/tracking-domains/{id}/verify",
    tag,
    access: "write",
    role: "admin",
    summary:
      "Check the domain's DNS now (owner or admin), through the DNS servers the installation uses: VERIFIED when its CNAME is cnameTarget " +
      "(or its A/AAAA addresses are the target's), else FAILING with lastError saying what the DNS answered. 409 when another workspace verified it",
    response: { description: "The domain, as stored after the check", schema: trackingDomainSchema },
  }),
  patch: defineRoute({
    method: "PATCH",
    path: "/settings/tracking-domains/{id}",
    tag,
    access: "write",
    role: "admin",
    body: patchTrackingDomainBody,
    summary:
      "Make the domain the workspace's default (owner or admin), which campaigns without their own tracking domain use; only a VERIFIED " +
      "domain (else 400 VALIDATION_ERROR on isDefault). Setting one unsets the previous default",
    response: { description: "The domain", schema: trackingDomainSchema },
  }),
  delete: defineRoute({
    method: "DELETE",
    path: "/settings/tracking-domains/{id}",
    tag,
    access: "write",
    role: "admin",
    summary: "Delete a tracking domain (owner or admin); campaigns that chose it track through the default again (else APP_URL)",
    response: { description: "`{ deleted, id }`", schema: deletedSchema },
  }),
};
