"use client";

import { useState } from "react";
import { nextVariantGroup } from "../labels";
import { useSpamWords, useSteps } from "../queries";
import { draftOf, emptyDraft, stepGroups, type Draft, type NewVariant, type Slot } from "./drafts";
import { type Rewrite, useCopyFatigue } from "./copy-fatigue";

/**
 * The sequence editor's state: the saved steps with the variants added but not saved yet, every editor's
 * draft (kept here so that the preview renders the draft being edited, not the saved text), which editor
 * the preview follows, and what adding, saving, discarding, deleting and a copy-fatigue rewrite do to them.
 */
export function useSequence(campaignId: string) {
  const steps = useSteps(campaignId);
  const spam = useSpamWords(campaignId);
  const fatigue = useCopyFatigue(campaignId);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [added, setAdded] = useState<NewVariant[]>([]);
  const [activeKey, setActiveKey] = useState<string>();

  const groups = stepGroups(steps.data ?? [], added);
  const slots = groups.flatMap((g) => g.slots);
  const draftFor = (slot: Slot) => drafts[slot.key] ?? (slot.step ? draftOf(slot.step) : emptyDraft(slot.stepOrder));
  const active = slots.find((s) => s.key === activeKey) ?? slots[0];
  const setDraft = (key: string, d: Draft) => setDrafts((all) => ({ ...all, [key]: d }));
  const forget = (key: string) =>
    setDrafts((all) => {
      const { [key]: _gone, ...rest } = all;
      return rest;
    });

  function addStep() {
    const stepOrder = slots.length ? Math.max(...slots.map((s) => s.stepOrder)) + 1 : 0;
    const key = `new:${stepOrder}:`;
    setAdded((a) => [...a, { key, stepOrder, variantGroup: null }]);
    setActiveKey(key);
  }

  function addVariant(stepOrder: number, siblings: Slot[]) {
    const variantGroup = nextVariantGroup(siblings.map((s) => s.variantGroup));
    const key = `new:${stepOrder}:${variantGroup}`;
    // A variant starts as a copy of the step's first variant: A/B tests usually change one line.
    setDraft(key, { ...draftFor(siblings[0]) });
    setAdded((a) => [...a, { key, stepOrder, variantGroup }]);
    setActiveKey(key);
  }

  function saved(slot: Slot, stepId: string) {
    forget(slot.key);
    void fatigue.refetch(); // changed copy starts afresh (GET rescans it)
    if (!slot.step) {
      setAdded((a) => a.filter((n) => n.key !== slot.key));
      if (activeKey === slot.key) setActiveKey(stepId);
    }
  }

  function removed(slot: Slot) {
    forget(slot.key);
    setAdded((a) => a.filter((n) => n.key !== slot.key));
  }

  /** A copy-fatigue rewrite fills the editor (the step is unchanged until Save), and the preview follows it. */
  function rewrite(slot: Slot, r: Rewrite) {
    const d = draftFor(slot);
    setDraft(slot.key, { ...d, subject: r.subject ?? d.subject, bodyTemplate: r.bodyTemplate });
    setActiveKey(slot.key);
  }

  return { steps, spam, fatigue, groups, active, draftFor, setDraft, forget, setActiveKey, addStep, addVariant, saved, removed, rewrite };
}

export type Sequence = ReturnType<typeof useSequence>;
