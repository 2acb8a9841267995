"use client";

import { useEffect, useRef } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { stepLabel, variantLabel } from "../labels";
import type { Campaign } from "../types";
import type { Slot } from "./drafts";
import { CopyFatigueBar, FatigueFlag } from "./copy-fatigue";
import { BranchRules } from "./branch-rules";
import { PreviewPanel } from "./preview-panel";
import { StepEditor } from "./step-editor";
import { SubsequencesPanel } from "./subsequences-panel";
import { type Sequence, useSequence } from "./use-sequence";

/** How an editor is named on screen and to screen readers: "Step 1", or "Step 1 variant B" when the step has variants. */
export function slotTitle(slot: Pick<Slot, "stepOrder" | "variantGroup">, hasVariants: boolean): string {
  return hasVariants ? `${stepLabel(slot.stepOrder)} variant ${variantLabel(slot.variantGroup)}` : stepLabel(slot.stepOrder);
}

/** The element id of a saved step's editor: `#step-<id>` in the address opens the sequence there (the launch dialog's fix links). */
export const stepAnchor = (stepId: string) => `step-${stepId}`;

/**
 * Once the steps are shown, a `#step-<id>` in the address scrolls to that step's editor and makes it the
 * previewed one (the browser's own jump happens before the steps have loaded, so it finds nothing).
 */
function useStepFromAddress(seq: Sequence) {
  // Once: later edits re-render the groups, and the page must not jump back while someone types.
  const done = useRef(false);
  const { groups, setActiveKey } = seq;
  useEffect(() => {
    if (done.current || groups.length === 0) return;
    done.current = true;
    const id = window.location.hash.startsWith("#step-") ? decodeURIComponent(window.location.hash.slice("#step-".length)) : "";
    const slot = id ? groups.flatMap((g) => g.slots).find((s) => s.step?.id === id) : undefined;
    if (!slot) return;
    setActiveKey(slot.key);
    document.getElementById(stepAnchor(id))?.scrollIntoView({ block: "start" });
  }, [groups, setActiveKey]);
}

/** One variant's editor, under its copy-fatigue flag when the step is flagged. */
function SlotEditor({ campaignId, seq, slot, hasVariants }: { campaignId: string; seq: Sequence; slot: Slot; hasVariants: boolean }) {
  const { fatigue, spam, active, draftFor, setDraft, forget, setActiveKey, saved, removed, rewrite } = seq;
  const flag = fatigue.data?.steps.find((f) => f.stepId === slot.step?.id && f.status === "FATIGUED");
  return (
    <div id={slot.step ? stepAnchor(slot.step.id) : undefined} className="scroll-mt-4 space-y-2">
      {flag && <FatigueFlag campaignId={campaignId} title={slotTitle(slot, hasVariants)} row={flag} onRewrite={(r) => rewrite(slot, r)} />}
      <StepEditor
        campaignId={campaignId}
        slot={slot}
        title={slotTitle(slot, hasVariants)}
        draft={draftFor(slot)}
        active={slot.key === active?.key}
        spam={spam.data?.steps.find((s) => s.stepId === slot.step?.id)?.matches}
        rspamd={spam.data?.rspamd?.steps.find((s) => s.stepId === slot.step?.id)}
        onChange={(d) => setDraft(slot.key, d)}
        onActivate={() => setActiveKey(slot.key)}
        onSaved={(stepId) => saved(slot, stepId)}
        onDiscard={() => (slot.step ? forget(slot.key) : removed(slot))}
        onDeleted={() => removed(slot)}
      />
      {/* The saved variant's branch rules (a new one gets them once saved); the key renews them when the step reloads. */}
      {slot.step && <BranchRules key={slot.step.id} campaignId={campaignId} step={slot.step} title={slotTitle(slot, hasVariants)} />}
    </div>
  );
}

/** A step: its heading (a follow-up goes in the same thread), Add variant, and one editor per variant. */
function StepGroup({ campaignId, seq, group }: { campaignId: string; seq: Sequence; group: Sequence["groups"][number] }) {
  const g = group;
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-semibold text-gray-900">
          {stepLabel(g.stepOrder)}
          {g.stepOrder > 0 && <span className="ml-2 font-normal text-gray-500">follow-up, same thread</span>}
        </h2>
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Add variant to ${stepLabel(g.stepOrder)}`}
          onClick={() => seq.addVariant(g.stepOrder, g.slots)}
        >
          Add variant
        </Button>
      </div>
      {g.slots.map((slot) => (
        <SlotEditor key={slot.key} campaignId={campaignId} seq={seq} slot={slot} hasVariants={g.slots.length > 1} />
      ))}
    </div>
  );
}

/** The preview of the editor last focused (the first one until then). */
function PreviewColumn({ campaignId, seq }: { campaignId: string; seq: Sequence }) {
  const { active, groups, draftFor } = seq;
  return (
    <div className="xl:sticky xl:top-4 xl:self-start">
      {active ? (
        <PreviewPanel
          campaignId={campaignId}
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
  );
}

/**
 * The sequence editor. Every variant has its own editor and Save (PATCH, or POST for a new one); the
 * drafts live in useSequence so that the preview panel can render the draft being edited, not the saved text.
 */
export function SequenceTab({ campaign }: { campaign: Campaign }) {
  const seq = useSequence(campaign.id);
  const { steps, spam, fatigue, groups } = seq;
  useStepFromAddress(seq);

  if (steps.error) return <Alert tone="error">Could not load the steps: {describeError(steps.error)}</Alert>;
  if (!steps.data) return <p className="text-sm text-gray-500">Loading…</p>;

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
      <div className="space-y-6">
        {spam.error && <Alert tone="error">Could not check spam words: {describeError(spam.error)}</Alert>}
        {spam.data?.rspamd?.error && <Alert tone="warning">rspamd could not score the steps: {spam.data.rspamd.error}</Alert>}
        {groups.length > 0 && <CopyFatigueBar campaignId={campaign.id} list={fatigue.data} />}
        {groups.length === 0 && (
          <div className="rounded-lg border border-dashed border-gray-300 bg-white px-6 py-8 text-center text-sm text-gray-600">
            No steps yet. Write the first email: later steps follow up in the same thread.
          </div>
        )}
        {groups.map((g) => (
          <StepGroup key={g.stepOrder} campaignId={campaign.id} seq={seq} group={g} />
        ))}
        <Button onClick={seq.addStep}>{groups.length === 0 ? "Write the first email" : "Add step"}</Button>
        {groups.length > 0 && <SubsequencesPanel campaignId={campaign.id} />}
      </div>
      <PreviewColumn campaignId={campaign.id} seq={seq} />
    </div>
  );
}
