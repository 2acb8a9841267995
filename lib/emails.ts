/**
 * Address normalisation: trimmed, domain lower-cased (the local part keeps its case; matching is
 * case-insensitive anyway). Returns the reason when the address is not one we can send to.
 */
export function normalizeEmail(raw: unknown): { ok: true; email: string; domain: string } | { ok: false; reason: string } {
  if (typeof raw !== "string") return { ok: false, reason: "email is required" };
  const s = raw.trim();
  if (!s) return { ok: false, reason: "email is required" };
  if (s.length > 254) return { ok: false, reason: "email is longer than 254 characters" };
  const at = s.lastIndexOf("@");
  if (at <= 0 || at === s.length - 1) return { ok: false, reason: `"${s}" is not an email address (it needs local@domain)` };
  const local = s.slice(0, at);
  const domain = s.slice(at + 1).toLowerCase();
  if (local.length > 64) return { ok: false, reason: "the part before @ is longer than 64 characters" };
  if (!/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(local))
    return { ok: false, reason: `"${s}" has characters not allowed before the @` };
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain))
    return { ok: false, reason: `"${domain}" is not a valid domain` };
  return { ok: true, email: `${local}@${domain}`, domain };
}

export function normalizeDomain(raw: string): string | undefined {
  const d = raw.trim().toLowerCase().replace(/^@/, "");
  return /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(d) ? d : undefined;
}
