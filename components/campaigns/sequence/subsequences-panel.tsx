"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { stepLabel } from "../labels";
import { useCampaignStats } from "../stats/queries";
import { BranchRules } from "./branch-rules";
import { useSubsequences } from "./use-branch-rules";
import { useNewSubsequence, useSubsequenceEditor, useSubsequenceSteps } from "./use-subsequences";

type Sub = NonNullable<ReturnType<typeof useSubsequences>["data"]>[number];

/** A new step at the end of a subsequence: its subject (a thread of its own only), body and delay. */
function NewStepForm({ e, sub, first }: { e: ReturnType<typeof useSubsequenceEditor>; sub: Sub; first: boolean }) {
  return (
    <div className="space-y-2 rounded-md bg-gray-50 p-3">
      {sub.threading === "new" && (
        <Field
          label={`${sub.name}: subject`}
          errors={e.fe.subject}
          hint={first ? "The first email of its own thread needs one." : undefined}
        >
          <Input value={e.subject} onChange={(x) => e.setSubject(x.target.value)} />
        </Field>
      )}
      <Field label={`${sub.name}: new step body`} errors={e.fe.bodyTemplate}>
        <Textarea rows={3} value={e.body} onChange={(x) => e.setBody(x.target.value)} />
      </Field>
      <Field label={`${sub.name}: hours after the previous email`} errors={e.fe.delayHoursAfterPrevious}>
        <Input type="number" min={0} step="any" value={e.delay} onChange={(x) => e.setDelay(x.target.value)} />
      </Field>
      {e.addStep.error && !Object.keys(e.fe).length && <Alert tone="error">Could not add: {describeError(e.addStep.error)}</Alert>}
      <Button size="sm" disabled={!e.body.trim() || e.addStep.isPending} onClick={() => e.addStep.mutate()}>
        Add step to {sub.name}
      </Button>
    </div>
  );
}

/** One subsequence: what it got so far, its steps (each with its own branches), a new step, and deleting it. */
function SubsequenceCard({
  campaignId,
  sub,
  counts,
}: {
  campaignId: string;
  sub: Sub;
  counts?: { entered: number; sent: number; replied: number };
}) {
  const steps = useSubsequenceSteps(campaignId, sub.id);
  const list = steps.data ?? [];
  const e = useSubsequenceEditor(campaignId, sub.id, list.length ? Math.max(...list.map((s) => s.stepOrder)) + 1 : 0);
  return (
    <section aria-label={`Subsequence ${sub.name}`} className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-gray-900">
          {sub.name}
          <span className="ml-2 font-normal text-gray-500">
            {sub.threading === "same" ? "continues the lead's thread" : "a thread of its own"}
          </span>
        </h3>
        <Button size="sm" variant="secondary" aria-label={`Delete subsequence ${sub.name}`} onClick={() => e.remove.mutate()}>
          Delete
        </Button>
      </div>
      <p className="text-xs text-gray-600" data-testid="subsequence-counts">
        {counts?.entered ?? 0} entered · {counts?.sent ?? 0} sent · {counts?.replied ?? 0} replied
      </p>
      {e.remove.error && <Alert tone="error">Could not delete: {describeError(e.remove.error)}</Alert>}
      {list.map((s) => (
        <div key={s.id} className="space-y-2 border-l-2 border-indigo-200 pl-3">
          <div className="flex items-start justify-between gap-2">
            <p className="text-sm text-gray-800">
              <span className="font-medium">{stepLabel(s.stepOrder)}</span>
              <span className="ml-2 text-xs text-gray-500">after {s.delayHoursAfterPrevious ?? 0} h</span>
              <span className="mt-1 block whitespace-pre-wrap text-gray-600">{s.bodyTemplate}</span>
            </p>
            <Button
              size="sm"
              variant="secondary"
              aria-label={`Delete ${sub.name} ${stepLabel(s.stepOrder)}`}
              onClick={() => e.deleteStep.mutate(s.id)}
            >
              Delete
            </Button>
          </div>
          <BranchRules campaignId={campaignId} step={s} title={`${sub.name} ${stepLabel(s.stepOrder)}`} />
        </div>
      ))}
      {e.deleteStep.error && <Alert tone="error">Could not delete the step: {describeError(e.deleteStep.error)}</Alert>}
      <NewStepForm e={e} sub={sub} first={list.length === 0} />
    </section>
  );
}

/** The campaign's subsequences, entered by leads on a branch, and a form to add one. */
export function SubsequencesPanel({ campaignId }: { campaignId: string }) {
  const subs = useSubsequences(campaignId);
  const stats = useCampaignStats(campaignId, false);
  const n = useNewSubsequence(campaignId);
  return (
    <section className="space-y-4" aria-label="Subsequences">
      <h2 className="text-sm font-semibold text-gray-900">Subsequences</h2>
      <p className="text-xs text-gray-500">
        Named sequences a lead enters when a branch says so; window, days, caps and mailbox stay the campaign's.
      </p>
      {subs.error && <Alert tone="error">Could not load the subsequences: {describeError(subs.error)}</Alert>}
      {subs.data?.map((s) => (
        <SubsequenceCard key={s.id} campaignId={campaignId} sub={s} counts={stats.data?.subsequences.find((x) => x.id === s.id)} />
      ))}
      <div className="flex items-end gap-2">
        <Field label="New subsequence name" errors={n.fe.name}>
          <Input value={n.name} maxLength={200} onChange={(e) => n.setName(e.target.value)} />
        </Field>
        <Field label="Threading">
          <Select value={n.threading} onChange={(e) => n.setThreading(e.target.value as "same" | "new")}>
            <option value="same">Same thread (Re: …)</option>
            <option value="new">A new thread</option>
          </Select>
        </Field>
        <Button disabled={!n.name.trim() || n.create.isPending} onClick={() => n.create.mutate()}>
          Add subsequence
        </Button>
      </div>
      {n.create.error && !Object.keys(n.fe).length && <Alert tone="error">Could not add: {describeError(n.create.error)}</Alert>}
    </section>
  );
}
