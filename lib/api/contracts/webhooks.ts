import { defineRoute } from "../route";
import { deletedSchema } from "./responses";
import { createWebhookBody, listDeliveriesQuery, patchWebhookBody } from "../../webhooks/schemas";
import * as ir from "./inbox-responses";
import { pagedListResponse } from "./paged";

const tag = "Webhooks";

export const webhookRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/webhooks",
    tag,
    access: "read",
    summary: "Webhooks (secrets are never returned)",
    response: { description: "`{ webhooks }`", schema: ir.webhooksSchema },
  }),
  create: defineRoute({
    method: "POST",
    path: "/webhooks",
    tag,
    access: "write",
    body: createWebhookBody,
    summary: "Create a webhook; the signing secret is in this answer only. Private, internal and metadata URLs are refused (400 on url)",
    response: { status: 201, description: "The webhook plus `secret`", schema: ir.webhookWithSecretSchema },
  }),
  get: defineRoute({
    method: "GET",
    path: "/webhooks/{id}",
    tag,
    access: "read",
    summary: "One webhook",
    response: { description: "The webhook", schema: ir.webhookSchema },
  }),
  patch: defineRoute({
    method: "PATCH",
    path: "/webhooks/{id}",
    tag,
    access: "write",
    body: patchWebhookBody,
    summary: "Change url, events, active, retryAttempts (1–10), timeoutMs (1000–30000); the id, secret and log stay",
    response: { description: "The webhook", schema: ir.webhookSchema },
  }),
  delete: defineRoute({
    method: "DELETE",
    path: "/webhooks/{id}",
    tag,
    access: "write",
    summary: "Delete a webhook and its delivery log",
    response: { description: "`{ deleted, id }`", schema: deletedSchema },
  }),
  test: defineRoute({
    method: "POST",
    path: "/webhooks/{id}/test",
    tag,
    access: "write",
    summary: "Send one signed webhook.test now (logged, not retried)",
    response: { description: "`{ delivered, statusCode, error, deliveryId, eventId }`", schema: ir.webhookTestSchema },
  }),
  rotate: defineRoute({
    method: "POST",
    path: "/webhooks/{id}/rotate-secret",
    tag,
    access: "write",
    summary: "New signing secret, shown once; both sign for 24 hours",
    response: { description: "The webhook plus `secret`", schema: ir.webhookWithSecretSchema },
  }),
  deliveries: defineRoute({
    method: "GET",
    path: "/webhooks/{id}/deliveries",
    tag,
    access: "read",
    query: listDeliveriesQuery,
    summary: "Delivery log, newest first (kept 30 days)",
    response: { description: "`{ deliveries, page, limit, total }`", schema: pagedListResponse("deliveries", ir.deliverySchema).schema },
  }),
  resend: defineRoute({
    method: "POST",
    path: "/webhooks/{id}/deliveries/{deliveryId}/resend",
    tag,
    access: "write",
    errors: [409],
    summary: "Send a delivered or failed delivery again: same body, same event id",
    response: { description: "The delivery plus `delivered`", schema: ir.resendResultSchema },
  }),
};
