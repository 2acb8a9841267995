import type { BadgeTone } from "@/components/ui/badge";
import type { Intent } from "./types";

/** Every intent, in the order the filter chips show them (the built-in classifier's seven). */
export const INTENT_ORDER: Intent[] = [
  "INTERESTED",
  "QUESTION",
  "NOT_INTERESTED",
  "OUT_OF_OFFICE",
  "WRONG_PERSON",
  "UNSUBSCRIBE_REQUEST",
  "UNCLASSIFIED",
];

export const INTENT_LABEL: Record<Intent, string> = {
  UNCLASSIFIED: "Unclassified",
  INTERESTED: "Interested",
  NOT_INTERESTED: "Not interested",
  OUT_OF_OFFICE: "Out of office",
  WRONG_PERSON: "Wrong person",
  UNSUBSCRIBE_REQUEST: "Unsubscribe request",
  QUESTION: "Question",
};

export const INTENT_TONE: Record<Intent, BadgeTone> = {
  UNCLASSIFIED: "gray",
  INTERESTED: "green",
  NOT_INTERESTED: "red",
  OUT_OF_OFFICE: "yellow",
  WRONG_PERSON: "indigo",
  UNSUBSCRIBE_REQUEST: "red",
  QUESTION: "blue",
};

/** Who sent one of our replies when no team member is named (a person's own mail client, or a reply from before teams). */
export const SENT_BY_LABEL = { HUMAN: "a person", API: "the API", AGENT: "an agent" } as const;

/** "Kim Lee", else the address. */
export function personName(p: { firstName?: string | null; lastName?: string | null; email: string } | null | undefined): string {
  if (!p) return "Unknown lead";
  const name = [p.firstName, p.lastName].filter(Boolean).join(" ").trim();
  return name || p.email;
}

/** `Name <address>` for a header line, or the bare address. */
export function formatAddress(a: { name: string | null; address: string }): string {
  return a.name ? `${a.name} <${a.address}>` : a.address;
}

/** The first meaningful line of a message body, for the list's snippet (quoted history dropped). */
export function snippet(text: string | null | undefined, max = 140): string {
  const lines = (text ?? "").split(/\r?\n/);
  const own: string[] = [];
  for (const l of lines) {
    if (/^\s*>/.test(l)) continue;
    if (/^On .+wrote:\s*$/.test(l.trim())) break;
    if (l.trim()) own.push(l.trim());
  }
  const s = own.join(" ").replace(/\s+/g, " ");
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}
