import type { BadgeTone } from "@/components/ui/badge";
import type { AddLeadResultKind, CampaignStatus } from "./types";

export const STATUSES: CampaignStatus[] = ["DRAFT", "ACTIVE", "PAUSED", "ARCHIVED"];

export const STATUS: Record<CampaignStatus, { label: string; tone: BadgeTone }> = {
  DRAFT: { label: "Draft", tone: "gray" },
  ACTIVE: { label: "Active", tone: "green" },
  PAUSED: { label: "Paused", tone: "yellow" },
  ARCHIVED: { label: "Archived", tone: "blue" },
};

/** The per-lead results of POST /campaigns/<id>/leads, in the order the summary lists them. */
export const ADD_RESULTS: Record<AddLeadResultKind, { label: string; about: string }> = {
  assigned: { label: "Assigned", about: "added and given a pool mailbox" },
  no_eligible_mailbox: { label: "No eligible mailbox", about: "added without a mailbox: no pool mailbox can send; reassign once one can" },
  seg_blocked: {
    label: "ESP-matching blocked",
    about: "added without a mailbox: STRICT ESP matching found no pool mailbox of the lead's provider",
  },
  suppressed: { label: "Suppressed", about: "not added: the address is on the suppression list" },
  error: { label: "Error", about: "not added" },
};

/** Sunday = 0, as the API counts days; listed Monday first, as most calendars do. */
export const DAYS = [
  { value: 1, label: "Mon" },
  { value: 2, label: "Tue" },
  { value: 3, label: "Wed" },
  { value: 4, label: "Thu" },
  { value: 5, label: "Fri" },
  { value: 6, label: "Sat" },
  { value: 0, label: "Sun" },
];

/** A 0–1 rate as a percentage with one decimal. */
export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** Variant names: the first variant of a step has no group (shown as "A"); the others are B, C, … */
export function variantLabel(group: string | null): string {
  return group ?? "A";
}

export function nextVariantGroup(taken: (string | null)[]): string {
  const used = new Set(taken.map((g) => g ?? "A"));
  for (let c = 66; c <= 90; c++) if (!used.has(String.fromCharCode(c))) return String.fromCharCode(c);
  return `V${taken.length + 1}`;
}

/** "Step 1" for stepOrder 0: people count from one. */
export function stepLabel(stepOrder: number): string {
  return `Step ${stepOrder + 1}`;
}
