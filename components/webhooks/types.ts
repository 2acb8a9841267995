import type { BodyOf, QueryOf, ResponseOf } from "@/lib/client";

/** A webhook as GET /api/v1/webhooks lists it (the secret is never listed); types from the generated client. */
export type WebhookView = ResponseOf<"/webhooks/{id}", "get">;

/** The answer of POST /webhooks and POST /webhooks/<id>/rotate-secret: the only times the secret is shown. */
export type WebhookWithSecret = ResponseOf<"/webhooks", "post">;

/** One row of GET /webhooks/<id>/deliveries. */
export type DeliveryView = DeliveryPage["deliveries"][number];

export type DeliveryStatus = NonNullable<QueryOf<"/webhooks/{id}/deliveries", "get">["status"]>;

export type DeliveryPage = ResponseOf<"/webhooks/{id}/deliveries", "get">;

/** POST /webhooks/<id>/test: 200 even when the receiver failed. */
export type TestResult = ResponseOf<"/webhooks/{id}/test", "post">;

/** POST /webhooks/<id>/deliveries/<deliveryId>/resend. */
export type ResendResult = ResponseOf<"/webhooks/{id}/deliveries/{deliveryId}/resend", "post">;

/** The fields of POST /webhooks and PATCH /webhooks/<id>. */
export type WebhookInput = BodyOf<"/webhooks", "post">;
/** The fields of PATCH /webhooks/<id>: any of them. */
export type WebhookPatch = BodyOf<"/webhooks/{id}", "patch">;
