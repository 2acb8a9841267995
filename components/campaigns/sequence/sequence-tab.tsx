"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { nextVariantGroup, stepLabel, variantLabel } from "../labels";
import { useSpamWords, useSteps } from "../queries";
import type { Campaign } from "../types";
import { draftOf, emptyDraft, stepGroups, type Draft, type NewVariant, type Slot } from "./drafts";
import { CopyFatigueBar, FatigueFlag, useCopyFatigue } from "./copy-fatigue";
import { PreviewPanel } from "./preview-panel";
import { StepEditor } from "./step-editor";

/** How an editor is named on screen and to screen readers: "Step 1", or "Step 1 variant B" when the step has variants. */
export function slotTitle(slot: Pick<Slot, "stepOrder" | "variantGroup">, hasVariants: boolean): string {
  return hasVariants ? `${stepLabel(slot.stepOrder)} variant ${variantLabel(slot.variantGroup)}` : stepLabel(slot.stepOrder);
}

/**
 * The sequence editor. Every variant has its own editor and Save (PATCH, or POST for a new one); the
 * drafts live here so that the preview panel can render the draft being edited, not the saved text.
 */
export function SequenceTab({ campaign }: { campaign: Campaign }) {
  const steps = useSteps(campaign.id);
  const spam = useSpamWords(campaign.id);
  const fatigue = useCopyFatigue(campaign.id);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [added, setAdded] = useState<NewVariant[]>([]);
  const [activeKey, setActiveKey] = useState<string>();

  if (steps.error) return <Alert tone="error">Could not load the steps: {describeError(steps.error)}</Alert>;
  if (!steps.data) return <p className="text-sm text-gray-500">Loading…</p>;

  const groups = stepGroups(steps.data, added);
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

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
      <div className="space-y-6">
        {spam.error && <Alert tone="error">Could not check spam words: {describeError(spam.error)}</Alert>}
        {groups.length > 0 && <CopyFatigueBar campaignId={campaign.id} list={fatigue.data} />}
        {groups.length === 0 && (
          <div className="rounded-lg border border-dashed border-gray-300 bg-white px-6 py-8 text-center text-sm text-gray-600">
            No steps yet. Write the first email: later steps follow up in the same thread.
          </div>
        )}
        {groups.map((g) => (
          <div key={g.stepOrder} className="space-y-3">
            <div className="flex items-center justify-between">
              <h2 className="text-sm font-semibold text-gray-900">
                {stepLabel(g.stepOrder)}
                {g.stepOrder > 0 && <span className="ml-2 font-normal text-gray-500">follow-up, same thread</span>}
              </h2>
              <Button
                variant="secondary"
                size="sm"
                aria-label={`Add variant to ${stepLabel(g.stepOrder)}`}
                onClick={() => addVariant(g.stepOrder, g.slots)}
              >
                Add variant
              </Button>
            </div>
            {g.slots.map((slot) => {
              const flag = fatigue.data?.steps.find((f) => f.stepId === slot.step?.id && f.status === "FATIGUED");
              return (
                <div key={slot.key} className="space-y-2">
                  {flag && (
                    <FatigueFlag
                      campaignId={campaign.id}
                      title={slotTitle(slot, g.slots.length > 1)}
                      row={flag}
                      onRewrite={(r) => {
                        const d = draftFor(slot);
                        setDraft(slot.key, { ...d, subject: r.subject ?? d.subject, bodyTemplate: r.bodyTemplate });
                        setActiveKey(slot.key);
                      }}
                    />
                  )}
                  <StepEditor
                    campaignId={campaign.id}
                    slot={slot}
                    title={slotTitle(slot, g.slots.length > 1)}
                    draft={draftFor(slot)}
                    active={slot.key === active?.key}
                    spam={spam.data?.steps.find((s) => s.stepId === slot.step?.id)?.matches}
                    onChange={(d) => setDraft(slot.key, d)}
                    onActivate={() => setActiveKey(slot.key)}
                    onSaved={(stepId) => saved(slot, stepId)}
                    onDiscard={() => (slot.step ? forget(slot.key) : removed(slot))}
                    onDeleted={() => removed(slot)}
                  />
                </div>
              );
            })}
          </div>
        ))}
        <Button onClick={addStep}>{groups.length === 0 ? "Write the first email" : "Add step"}</Button>
      </div>
      <div className="xl:sticky xl:top-4 xl:self-start">
        {active ? (
          <PreviewPanel
            campaignId={campaign.id}
            title={slotTitle(active, (groups.find((g) => g.stepOrder === active.stepOrder)?.slots.length ?? 1) > 1)}
            stepOrder={active.stepOrder}
            stepId={active.step?.id}
            draft={draftFor(active)}
          />
        ) : (
          <p className="rounded-lg border border-gray-200 bg-white p-4 text-sm text-gray-600">
            The preview shows here once the sequence has a step.
          </p>
        )}
      </div>
    </div>
  );
}
