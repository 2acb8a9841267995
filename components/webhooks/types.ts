import type { ResponseOf } from "@/lib/client";

/** A webhook as GET /api/v1/webhooks lists it (the secret is never listed); types from the generated client. */
export type WebhookView = ResponseOf<"/webhooks/{id}", "get">;

/** The answer of POST /webhooks and POST /webhooks/<id>/rotate-secret: the only times the secret is shown. */
export type WebhookWithSecret = WebhookView & { secret: string };

/** One row of GET /webhooks/<id>/deliveries. */
export type DeliveryView = DeliveryPage["deliveries"][number];

export type DeliveryStatus = "PENDING" | "DELIVERED" | "FAILED";

export type DeliveryPage = ResponseOf<"/webhooks/{id}/deliveries", "get">;

/** POST /webhooks/<id>/test: 200 even when the receiver failed. */
export type TestResult = ResponseOf<"/webhooks/{id}/test", "post">;

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
