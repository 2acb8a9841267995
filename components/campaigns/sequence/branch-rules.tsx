"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import type { Step } from "../types";
import {
  ACTION_OPTIONS,
  type Action,
  type ActionKind,
  actionOf,
  INTENT_OPTIONS,
  type Intent,
  moved,
  type Rule,
  WHEN_OPTIONS,
  type When,
  type WhenKind,
  whenKind,
  whenOf,
} from "./branch-model";
import { type BranchRulesState, useBranchRules } from "./use-branch-rules";

type RowProps = { b: BranchRulesState; rule: Rule; i: number; label: string };

/** The condition: its kind, and the intents or hours it needs. */
function WhenFields({ b, rule, i, label }: RowProps) {
  const set = (when: When) => b.setRules(b.rules.map((r, j) => (j === i ? { ...r, when } : r)));
  const w = rule.when;
  return (
    <div className="space-y-1">
      <Select aria-label={`${label}: when`} value={whenKind(w)} onChange={(e) => set(whenOf(e.target.value as WhenKind))}>
        {WHEN_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
      {"replied" in w && (
        <div className="flex flex-wrap gap-x-3 gap-y-1">
          {INTENT_OPTIONS.map((o) => (
            <label key={o.value} className="flex items-center gap-1 text-xs text-gray-700">
              <input
                type="checkbox"
                aria-label={`${label}: ${o.label}`}
                checked={w.replied.includes(o.value)}
                onChange={(e) => {
                  const next = e.target.checked ? [...w.replied, o.value] : w.replied.filter((x: Intent) => x !== o.value);
                  if (next.length) set({ replied: next });
                }}
              />
              {o.label}
            </label>
          ))}
        </div>
      )}
      {"noReplyAfterHours" in w && (
        <Input
          type="number"
          min={1}
          max={2160}
          aria-label={`${label}: hours without a reply`}
          value={w.noReplyAfterHours}
          onChange={(e) => set({ noReplyAfterHours: Number(e.target.value) || 1 })}
        />
      )}
    </div>
  );
}

/** The action: its kind, and the subsequence, days, tag or member it needs. */
function ActionFields({ b, rule, i, label }: RowProps) {
  const set = (action: Action) => b.setRules(b.rules.map((r, j) => (j === i ? { ...r, action } : r)));
  const a = rule.action;
  return (
    <div className="space-y-1">
      <Select aria-label={`${label}: then`} value={a.type} onChange={(e) => set(actionOf(e.target.value as ActionKind, b.firsts))}>
        {ACTION_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
      {a.type === "subsequence" && (
        <Select aria-label={`${label}: subsequence`} value={a.subsequenceId} onChange={(e) => set({ ...a, subsequenceId: e.target.value })}>
          <option value="">Pick a subsequence…</option>
          {b.subsequences.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </Select>
      )}
      {a.type === "wait" && (
        <Input
          type="number"
          min={1}
          max={365}
          aria-label={`${label}: days`}
          value={a.days}
          onChange={(e) => set({ ...a, days: Number(e.target.value) || 1 })}
        />
      )}
      {a.type === "tag" && (
        <Select aria-label={`${label}: tag`} value={a.tagId} onChange={(e) => set({ ...a, tagId: e.target.value })}>
          <option value="">Pick a tag…</option>
          {b.tags.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </Select>
      )}
      {a.type === "assign" && (
        <Select aria-label={`${label}: member`} value={a.userId} onChange={(e) => set({ ...a, userId: e.target.value })}>
          <option value="">Pick a member…</option>
          {b.members.map((m) => (
            <option key={m.userId} value={m.userId}>
              {m.name || m.email}
            </option>
          ))}
        </Select>
      )}
    </div>
  );
}

/** One rule: drag it (or move it up and down) to reorder; how many leads took it so far. */
function RuleRow({ b, rule, i, label, onDrag, onDrop }: RowProps & { onDrag: (from: number | null) => void; onDrop: () => void }) {
  const errors = Object.entries(b.fe).flatMap(([k, ms]) => (k.startsWith(`branches.${i}`) ? ms : []));
  return (
    <li
      draggable
      onDragStart={() => onDrag(i)}
      onDragEnd={() => onDrag(null)}
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
      data-testid="branch-rule"
      className="grid grid-cols-[1.5rem_1fr_1fr_auto] items-start gap-2 rounded-md border border-gray-200 bg-gray-50 p-2"
    >
      <span className="cursor-grab pt-2 text-xs text-gray-500" title="Drag to reorder">
        {i + 1}.
      </span>
      <WhenFields b={b} rule={rule} i={i} label={label} />
      <ActionFields b={b} rule={rule} i={i} label={label} />
      <div className="flex flex-col items-end gap-1">
        <span className="text-xs text-gray-500" data-testid="branch-taken">
          {b.takenBy(i)} taken
        </span>
        <div className="flex gap-1">
          <Button
            size="sm"
            variant="secondary"
            aria-label={`${label}: move up`}
            disabled={i === 0}
            onClick={() => b.setRules(moved(b.rules, i, i - 1))}
          >
            ↑
          </Button>
          <Button
            size="sm"
            variant="secondary"
            aria-label={`${label}: move down`}
            disabled={i === b.rules.length - 1}
            onClick={() => b.setRules(moved(b.rules, i, i + 1))}
          >
            ↓
          </Button>
          <Button
            size="sm"
            variant="secondary"
            aria-label={`${label}: remove`}
            onClick={() => b.setRules(b.rules.filter((_, j) => j !== i))}
          >
            ✕
          </Button>
        </div>
      </div>
      {errors.map((m) => (
        <p key={m} data-testid="branch-error" className="col-span-4 text-xs text-red-600">
          {m}
        </p>
      ))}
    </li>
  );
}

/**
 * A step's branches, read in order once the step is sent: "when the lead … then …". Without rules a
 * reply stops the sequence and silence moves on to the next step.
 */
export function BranchRules({ campaignId, step, title }: { campaignId: string; step: Step; title: string }) {
  const b = useBranchRules(campaignId, step);
  const [dragged, setDragged] = useState<number | null>(null);
  return (
    // Not a named region: its name would contain the step's ("Step 1"), and the step's editor is found by that name.
    <section data-testid="branches" data-step={title} className="space-y-2 rounded-md border border-dashed border-gray-300 p-3">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold text-gray-700">Branches after {title}</h3>
        <span className="text-xs text-gray-500">No rule matched: {b.takenBy(null)}</span>
      </div>
      {b.rules.length === 0 && <p className="text-xs text-gray-500">No branches: a reply stops the sequence, silence moves on.</p>}
      <ol className="space-y-2">
        {b.rules.map((rule, i) => (
          <RuleRow
            // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id of their own; their place is their identity
            key={i}
            b={b}
            rule={rule}
            i={i}
            label={`${title} rule ${i + 1}`}
            onDrag={setDragged}
            onDrop={() => dragged !== null && b.setRules(moved(b.rules, dragged, i))}
          />
        ))}
      </ol>
      {b.save.error && !Object.keys(b.fe).length && <Alert tone="error">Could not save: {describeError(b.save.error)}</Alert>}
      <div className="flex gap-2">
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Add a rule to ${title}`}
          onClick={() => b.setRules([...b.rules, { when: { replied: ["INTERESTED"] }, action: { type: "continue" } }])}
        >
          Add rule
        </Button>
        <Button
          size="sm"
          aria-label={`Save the branches of ${title}`}
          disabled={!b.dirty || b.save.isPending}
          onClick={() => b.save.mutate()}
        >
          {b.save.isPending ? "Saving…" : "Save branches"}
        </Button>
        {b.justSaved && (
          <span role="status" className="self-center text-xs text-green-700">
            Branches saved
          </span>
        )}
        {b.dirty && (
          <Button size="sm" variant="secondary" onClick={b.reset}>
            Discard
          </Button>
        )}
      </div>
    </section>
  );
}
