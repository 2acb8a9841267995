import { z } from "zod";
import { defineRoute } from "../route";
import { tagRef } from "../../leads/schemas";
import {
  bulkDailyCapBody,
  bulkImportBody,
  connectByEmailBody,
  listMailboxesQuery,
  mailboxIssueSchema,
  mailboxSchema,
  patchMailboxBody,
  testSendBody,
} from "../../mailboxes/schemas";
import { domainIdsBody, listDomainsQuery, patchDomainBody } from "../../domains/domains";

const tag = "Mailboxes";

export const mailboxRoutes = {
  list: defineRoute({
    method: "GET", path: "/mailboxes", tag, access: "read", query: listMailboxesQuery,
    summary: "Mailboxes: a plain array with X-Total-Count, X-Page, X-Limit (first page up to 5000)",
    response: { description: "Array of mailboxes (passwords are never returned)", schema: z.array(mailboxSchema) },
  }),
  get: defineRoute({ method: "GET", path: "/mailboxes/{id}", tag, access: "read", summary: "One mailbox (same fields as a list row)", response: { description: "The mailbox", schema: mailboxSchema } }),
  issues: defineRoute({
    method: "GET", path: "/mailboxes/issues", tag, access: "read",
    summary: "Mailboxes with a problem: LOGIN_FAILING, READ_FAILING (≥ 30 min), AUTO_PAUSED",
    response: { description: "`{ mailboxes, issues }`", schema: z.object({ mailboxes: z.number(), issues: z.array(mailboxIssueSchema) }) },
  }),
  connect: defineRoute({
    method: "PUT", path: "/mailboxes/by-email/{email}", tag, access: "write", body: connectByEmailBody, errors: [502],
    summary: "Add or update a hosted-webmail mailbox with an app password (checked by a real SMTP login first). 201 created, 200 replaced",
    response: { description: "The mailbox row plus `created`", schema: mailboxSchema.extend({ created: z.boolean() }) },
  }),
  bulkImport: defineRoute({
    method: "POST", path: "/mailboxes/bulk-import", tag, access: "write", body: bulkImportBody,
    summary: "Import mailboxes with their own SMTP/IMAP credentials, each verified unless verify: false",
    response: { description: "`{ created, updated, failed: [{ email, error, smtpResponseCode? }], mailboxes }`" },
  }),
  patch: defineRoute({
    method: "PATCH", path: "/mailboxes/{id}", tag, access: "write", body: patchMailboxBody, errors: [502],
    summary: "Update a mailbox (dailySendCap ≤ 20 here; new credentials are checked by a real login)",
    response: { description: "The mailbox", schema: mailboxSchema },
  }),
  delete: defineRoute({ method: "DELETE", path: "/mailboxes/{id}", tag, access: "write", errors: [409], summary: "Delete a mailbox (409 once it has send or reply history)", response: { description: "`{ deleted, id }`" } }),
  bulkDailyCap: defineRoute({
    method: "PATCH", path: "/mailboxes/bulk-daily-cap", tag, access: "write", body: bulkDailyCapBody,
    summary: "Set one daily send cap (≤ 20) on many mailboxes", response: { description: "`{ updated, notFound }`" },
  }),
  testSend: defineRoute({
    method: "POST", path: "/mailboxes/{id}/test-send", tag, access: "write", body: testSendBody, errors: [502],
    extraLimit: { name: "mailbox-test-send", points: 10, durationSeconds: 60 },
    summary: "Send a real test email through the mailbox's SMTP server; a failure carries smtpResponseCode",
    response: { description: "`{ sent, messageId, response, sentAt }`" },
  }),
  attachTag: defineRoute({ method: "POST", path: "/mailboxes/{mailboxId}/tags", tag, access: "write", body: tagRef, summary: "Attach a tag by tagId or name", response: { description: "`{ mailboxId, tag, attached }`" } }),
  detachTag: defineRoute({ method: "DELETE", path: "/mailboxes/{mailboxId}/tags/{tagId}", tag, access: "write", summary: "Remove a tag", response: { description: "`{ mailboxId, tagId, removed }`" } }),
};

export const domainRoutes = {
  list: defineRoute({
    method: "GET", path: "/domains", tag: "Domains", access: "read", query: listDomainsQuery,
    summary: "Sending domains with SPF/DKIM/DMARC/MX/blacklist status: a plain array with X-Total-Count, X-Page, X-Limit",
    response: { description: "Array of domains" },
  }),
  get: defineRoute({ method: "GET", path: "/domains/{id}", tag: "Domains", access: "read", summary: "One domain with its check details", response: { description: "The domain" } }),
  patch: defineRoute({ method: "PATCH", path: "/domains/{id}", tag: "Domains", access: "write", body: patchDomainBody, summary: "Set extra DKIM selectors to look for", response: { description: "The domain" } }),
  delete: defineRoute({ method: "DELETE", path: "/domains/{id}", tag: "Domains", access: "write", errors: [409], summary: "Delete a domain (409 while mailboxes use it)", response: { description: "`{ deleted, id }`" } }),
  check: defineRoute({ method: "POST", path: "/domains/{id}/check", tag: "Domains", access: "write", summary: "Re-check SPF, DKIM, DMARC, MX and blacklists now", response: { description: "The domain with fresh results" } }),
  bulkCheck: defineRoute({ method: "POST", path: "/domains/bulk-check", tag: "Domains", access: "write", body: domainIdsBody, summary: "Re-check many domains", response: { description: "`{ checked, notFound, domains }`" } }),
  bulkDelete: defineRoute({ method: "POST", path: "/domains/bulk-delete", tag: "Domains", access: "write", body: domainIdsBody, summary: "Delete many domains (those with mailboxes are listed in conflicts)", response: { description: "`{ deleted, notFound, conflicts }`" } }),
};
