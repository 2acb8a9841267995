/** One entry of the launch check (a blocker or a warning). */
export interface LaunchEntryLike {
  code: string;
  message: string;
}

/**
 * Blockers a launch may still go past with an explicit confirmation: leads that would receive a raw
 * `{{token}}` (the sender may mean it, e.g. a token filled later). The others (no steps, no leads, no
 * mailbox that can send) mean nothing could be sent, so Launch is not offered while they stand.
 */
export const CONFIRMABLE_BLOCKERS: ReadonlySet<string> = new Set(["TEMPLATE_TOKENS"]);

/** The blockers that keep Launch disabled. */
export function hardBlockers<T extends LaunchEntryLike>(blockers: readonly T[]): T[] {
  return blockers.filter((b) => !CONFIRMABLE_BLOCKERS.has(b.code));
}
