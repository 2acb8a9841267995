import type { webhooks } from "../../db/schema";
import { decryptSecret } from "../crypto/secretbox";
import { OutboundError, safeRequest } from "../net/http";
import type { AllowList } from "../net/ssrf";
import { type SigningKey, signatureHeader } from "./signing";

type WebhookRow = typeof webhooks.$inferSelect;

/** What sending needs of a webhook. */
export type Target = Pick<
  WebhookRow,
  "url" | "timeoutMs" | "retryAttempts" | "secretEnc" | "previousSecretEnc" | "previousSecretExpiresAt"
>;

/** What sending needs of a delivery. */
export interface Sendable {
  eventId: string;
  event: string;
  body: string;
}

export interface AttemptResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

export type SendResult = AttemptResult & { response: string | null };

/** The secrets a request is signed with: the current one, and the previous one during a rotation. */
export function signingSecrets(w: Pick<WebhookRow, "secretEnc" | "previousSecretEnc" | "previousSecretExpiresAt">, now: Date): string[] {
  const secrets = [decryptSecret(w.secretEnc)];
  const previousActive = w.previousSecretEnc && w.previousSecretExpiresAt && w.previousSecretExpiresAt > now;
  if (previousActive && w.previousSecretEnc) secrets.push(decryptSecret(w.previousSecretEnc));
  return secrets;
}

/** The six headers of a delivery (see docs/webhooks.md), signed over the exact body at `now`. */
export function deliveryHeaders(d: Sendable, secrets: SigningKey[], now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "Content-Type": "application/json",
    "User-Agent": "Outreach-Webhooks/1",
    "X-Service-Event": d.event,
    "X-Service-Event-Id": d.eventId,
    "X-Service-Timestamp": String(timestamp),
    "X-Service-Signature": signatureHeader(secrets, timestamp, d.body),
  };
}

/**
 * One POST of a delivery through the SSRF-safe client: any 2xx within the timeout is success, a
 * redirect is a failure and is not followed. Never throws: a failure is the result. `allow` is the
 * outbound allow list (OUTBOUND_ALLOW_HOSTS, read now when not given).
 */
export async function send(
  d: Sendable,
  w: Pick<Target, "url" | "timeoutMs">,
  secrets: SigningKey[],
  now: Date,
  allow?: AllowList,
): Promise<SendResult> {
  try {
    const res = await safeRequest(w.url, {
      method: "POST",
      timeoutMs: w.timeoutMs,
      body: d.body,
      maxBody: 1024,
      allow,
      // Kept connections per receiver (TCP_NODELAY): the address is still checked whenever one opens.
      keepAlive: true,
      headers: deliveryHeaders(d, secrets, now),
    });
    const statusCode = res.status;
    const response = res.body;
    if (statusCode >= 200 && statusCode < 300) return { delivered: true, statusCode, response, error: null };
    if (statusCode >= 300 && statusCode < 400) {
      const error = `Redirect (${statusCode}) to ${res.headers.location ?? "?"} not followed`;
      return { delivered: false, statusCode, response, error };
    }
    return { delivered: false, statusCode, response, error: `Receiver answered ${statusCode}` };
  } catch (e) {
    return { delivered: false, statusCode: null, error: failureMessage(e, w.timeoutMs), response: null };
  }
}

function failureMessage(e: unknown, timeoutMs: number): string {
  if (e instanceof OutboundError) return e.kind === "timeout" ? `Timed out after ${timeoutMs} ms` : e.message;
  return (e as Error).message;
}
