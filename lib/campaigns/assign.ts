import type { PoolMailbox } from "./eligibility";

export type AssignResult = "assigned" | "no_eligible_mailbox" | "seg_blocked";

/**
 * Picks the pool mailbox with the fewest leads of this campaign (balanced by load), honouring ESP
 * matching (decisions.md): PREFER takes a mailbox of the lead's provider class when one exists, STRICT
 * only such a mailbox (`seg_blocked` when the pool has none). A lead of class UNKNOWN matches any.
 * `load` is updated in place so a batch stays balanced.
 */
export function pickMailbox(
  eligible: PoolMailbox[],
  load: Map<string, number>,
  espMatching: "OFF" | "PREFER" | "STRICT",
  leadEspClass: string,
): { result: AssignResult; mailboxId: string | null } {
  if (eligible.length === 0) return { result: "no_eligible_mailbox", mailboxId: null };
  let candidates = eligible;
  if (espMatching !== "OFF" && leadEspClass !== "UNKNOWN") {
    const same = eligible.filter((m) => m.espClass === leadEspClass);
    if (same.length) candidates = same;
    else if (espMatching === "STRICT") return { result: "seg_blocked", mailboxId: null };
  }
  let best = candidates[0];
  for (const m of candidates) if ((load.get(m.id) ?? 0) < (load.get(best.id) ?? 0)) best = m;
  load.set(best.id, (load.get(best.id) ?? 0) + 1);
  return { result: "assigned", mailboxId: best.id };
}
