import { VERIFICATION_STATUSES } from "./schemas";

/**
 * A POST /leads body recognised without zod: `createLeadsBody` parses a 1,000-lead body in ~2 ms once
 * warm but ~25–40 ms in a process's first calls, and most bodies are plain. This accepts only what
 * that schema would return unchanged — known keys only, every value valid — so the parsed JSON can be
 * used as it is; anything else (an unknown key zod would strip, a value it would refuse) returns false
 * and zod decides, with its own error messages. input-check.test.ts holds the two side by side.
 */
export function isPlainCreateLeadsBody(body: unknown): boolean {
  if (!isObject(body)) return false;
  for (const k in body) if (k !== "leads") return false;
  const leads = body.leads;
  if (!Array.isArray(leads) || leads.length < 1 || leads.length > 1000) return false;
  for (const item of leads) if (!isPlainLead(item)) return false;
  return true;
}

const STATUSES: ReadonlySet<unknown> = new Set(VERIFICATION_STATUSES);
/** The limits of schemas.ts: text fields, timezone, custom field names and values, custom fields per lead. */
const TEXT_MAX = 1000;
const TIMEZONE_MAX = 100;
const FIELD_NAME_MAX = 100;
const FIELD_VALUE_MAX = 10_000;
const FIELDS_MAX = 200;
const FIELD_NAME = /^[^{}\s][^{}]*$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

const isText = (v: unknown, max: number) => v === null || (typeof v === "string" && v.length <= max);

function isPlainLead(item: unknown): boolean {
  if (!isObject(item) || typeof item.email !== "string" || item.email.length > TEXT_MAX) return false;
  for (const k in item) {
    const v = item[k];
    switch (k) {
      case "email":
        break;
      case "firstName":
      case "lastName":
      case "companyName":
      case "companyDomain":
      case "phoneNumber":
      case "jobTitle":
        if (!isText(v, TEXT_MAX)) return false;
        break;
      case "timezone":
        if (!isText(v, TIMEZONE_MAX)) return false;
        break;
      case "verificationStatus":
        if (!STATUSES.has(v)) return false;
        break;
      case "customFields":
        if (!isPlainCustomFields(v)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isPlainCustomFields(v: unknown): boolean {
  if (!isObject(v)) return false;
  let n = 0;
  for (const name in v) {
    // `__proto__` is left to zod: assigning it to its output object does not make a key.
    if (++n > FIELDS_MAX || name.length > FIELD_NAME_MAX || name === "__proto__" || !FIELD_NAME.test(name)) return false;
    if (!isFieldValue(v[name])) return false;
  }
  return true;
}

/** A custom field's value: text, a finite number (JSON's 1e999 parses to Infinity, which zod refuses), a boolean or null. */
function isFieldValue(v: unknown): boolean {
  if (typeof v === "string") return v.length <= FIELD_VALUE_MAX;
  return v === null || typeof v === "boolean" || Number.isFinite(v);
}
