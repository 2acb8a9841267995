import type { deliveryView, getWebhook } from "@/lib/webhooks/webhooks";

/** A webhook as GET /api/v1/webhooks lists it (the secret is never listed). */
export type WebhookView = Awaited<ReturnType<typeof getWebhook>>;

/** The answer of POST /webhooks and POST /webhooks/<id>/rotate-secret: the only times the secret is shown. */
export type WebhookWithSecret = WebhookView & { secret: string };

/** One row of GET /webhooks/<id>/deliveries. */
export type DeliveryView = ReturnType<typeof deliveryView>;

export type DeliveryStatus = "PENDING" | "DELIVERED" | "FAILED";

export interface DeliveryPage {
  deliveries: DeliveryView[];
  page: number;
  limit: number;
  total: number;
}

/** POST /webhooks/<id>/test: 200 even when the receiver failed. */
export interface TestResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  deliveryId: string;
  eventId: string;
}

/** POST /webhooks/<id>/deliveries/<deliveryId>/resend. */
export type ResendResult = DeliveryView & { delivered: boolean };

/** The fields of POST /webhooks and PATCH /webhooks/<id>. */
export interface WebhookInput {
  url: string;
  events: string[];
  active?: boolean;
  retryAttempts?: number;
  timeoutMs?: number;
}
