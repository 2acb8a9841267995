export type SendOutcome =
  | { kind: "bounce"; bounceType: "HARD" | "SOFT"; code: string; reason: string }
  | { kind: "failed"; code: string | null; reason: string; auth: boolean };

/**
 * What a refusal at send time means (architecture: SENT / BOUNCED / FAILED). The RFC 3463 enhanced code
 * decides when there is one: 5.1.x (no such mailbox or domain) and other permanent codes are hard
 * bounces; 5.2.2 (mailbox full), 5.2.3 (too large), 5.7.x (policy, reputation) are soft bounces; a
 * transient 4.x.x answer, a lost connection or a refused login is a send failure, retried later.
 * Without an enhanced code the reply code decides (550/551/553 hard, 552/554 soft, 4xx failed).
 */
export function classifySendError(
  responseCode: number | undefined,
  message: string,
  kind?: "auth" | "unreachable" | "rejected",
): SendOutcome {
  if (kind === "auth") return { kind: "failed", code: responseCode ? String(responseCode) : null, reason: message, auth: true };
  const enhanced = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(message);
  if (enhanced) {
    const [code, cls, subject, detail] = [enhanced[0], enhanced[1], enhanced[2], enhanced[3]];
    if (cls === "5") {
      const soft = (subject === "2" && (detail === "2" || detail === "3")) || subject === "7" || (subject === "3" && detail === "4");
      return { kind: "bounce", bounceType: soft ? "SOFT" : "HARD", code, reason: message };
    }
    if (cls === "4") return { kind: "failed", code, reason: message, auth: false };
  }
  if (responseCode && responseCode >= 500) {
    const hard = [550, 551, 553].includes(responseCode);
    return { kind: "bounce", bounceType: hard ? "HARD" : "SOFT", code: String(responseCode), reason: message };
  }
  return { kind: "failed", code: responseCode ? String(responseCode) : null, reason: message, auth: false };
}
