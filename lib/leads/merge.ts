import { LEAD_TEXT_FIELDS } from "./schemas";

export interface LeadState {
  email: string;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  companyDomain: string | null;
  phoneNumber: string | null;
  jobTitle: string | null;
  timezone: string | null;
  customFields: Record<string, string>;
  verificationStatus: "UNVERIFIED" | "VALID" | "RISKY" | "CATCH_ALL" | "INVALID" | "UNKNOWN";
}

export interface LeadPatch {
  firstName?: string | null;
  lastName?: string | null;
  companyName?: string | null;
  companyDomain?: string | null;
  phoneNumber?: string | null;
  jobTitle?: string | null;
  timezone?: string | null;
  customFields?: Record<string, string | number | boolean | null>;
  verificationStatus?: LeadState["verificationStatus"];
}

export function emptyLead(email: string): LeadState {
  return {
    email,
    firstName: null,
    lastName: null,
    companyName: null,
    companyDomain: null,
    phoneNumber: null,
    jobTitle: null,
    timezone: null,
    customFields: {},
    verificationStatus: "UNVERIFIED",
  };
}

function clean(v: string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const t = v.trim();
  return t === "" ? null : t;
}

/**
 * Only the sent fields change; an empty string (or null) clears a field;
 * customFields merge key by key ("" or null removes a key). Returns the new state and whether it differs.
 */
export function mergeLead(base: LeadState, patch: LeadPatch): { next: LeadState; changed: boolean } {
  const next: LeadState = { ...base, customFields: { ...base.customFields } };
  const changed = mergeInto(next, patch);
  return { next, changed };
}

/**
 * mergeLead's rules applied to `state` itself, for a caller that owns it (a batch merging into states it
 * built or read for this call): no copy of the lead per patch. Returns whether the state changed.
 */
export function mergeInto(state: LeadState, patch: LeadPatch): boolean {
  let changed = false;
  for (const f of LEAD_TEXT_FIELDS) {
    if (!(f in patch)) continue;
    const v = clean(patch[f]);
    if (v !== state[f]) {
      state[f] = v;
      changed = true;
    }
  }
  if ("timezone" in patch) {
    const v = clean(patch.timezone);
    if (v !== state.timezone) {
      state.timezone = v;
      changed = true;
    }
  }
  if (patch.verificationStatus && patch.verificationStatus !== state.verificationStatus) {
    state.verificationStatus = patch.verificationStatus;
    changed = true;
  }
  if (patch.customFields) {
    for (const [k, raw] of Object.entries(patch.customFields)) {
      const v = raw === null ? "" : String(raw);
      if (v === "") {
        if (k in state.customFields) {
          delete state.customFields[k];
          changed = true;
        }
      } else if (state.customFields[k] !== v) {
        state.customFields[k] = v;
        changed = true;
      }
    }
  }
  return changed;
}
