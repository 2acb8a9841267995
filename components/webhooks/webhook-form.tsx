"use client";

import { useEffect, useId, useRef, type FormEvent } from "react";
import { Field, Input } from "@/components/ui/input";
import { EVENT_NAMES } from "@/lib/webhooks/schemas";
import { EVENT_HINTS, RETRY_RANGE, TIMEOUT_RANGE } from "./labels";
import type { WebhookInput, WebhookView } from "./types";

type WebhookEvent = WebhookInput["events"][number];

/** The events the form offers (a stored webhook's list is plain strings in its answer). */
function isEvent(e: string): e is WebhookEvent {
  return (EVENT_NAMES as readonly string[]).includes(e);
}

export interface WebhookFormState {
  url: string;
  events: WebhookEvent[];
  retryAttempts: string;
  timeoutMs: string;
  active: boolean;
}

export function emptyForm(): WebhookFormState {
  return { url: "", events: [], retryAttempts: String(RETRY_RANGE.default), timeoutMs: String(TIMEOUT_RANGE.default), active: true };
}

export function formOf(w: WebhookView): WebhookFormState {
  return {
    url: w.url,
    events: w.events.filter(isEvent),
    retryAttempts: String(w.retryAttempts),
    timeoutMs: String(w.timeoutMs),
    active: w.active,
  };
}

/** A number field as the API wants it: a number, or undefined when left empty (the server's default). */
export function numberOrUndefined(s: string): number | undefined {
  return s.trim() === "" ? undefined : Number(s);
}

/** "All events" that is checked, unchecked or mixed, like a native tri-state box. */
function SelectAll({ checked, mixed, onChange }: { checked: boolean; mixed: boolean; onChange: (all: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <label className="inline-flex items-center gap-1.5 text-sm font-medium text-gray-800">
      <input ref={ref} type="checkbox" checked={checked} aria-checked={mixed ? "mixed" : checked} onChange={() => onChange(!checked)} />
      All events
    </label>
  );
}

/**
 * The fields of a webhook (create and edit): the URL, the events with a select-all box, the attempts
 * and the timeout. Every field shows the API's messages for it (`fieldErrors`), so a refused URL is
 * explained right under the URL.
 */
export function WebhookForm({
  id,
  value,
  onChange,
  onSubmit,
  fieldErrors,
  showActive,
}: {
  id: string;
  value: WebhookFormState;
  onChange: (next: WebhookFormState) => void;
  onSubmit: () => void;
  fieldErrors: Record<string, string[]>;
  showActive?: boolean;
}) {
  const set = (patch: Partial<WebhookFormState>) => onChange({ ...value, ...patch });

  function submit(e: FormEvent) {
    e.preventDefault();
    onSubmit();
  }

  return (
    <form id={id} onSubmit={submit} className="space-y-4" noValidate>
      <Field
        label="Endpoint URL"
        errors={fieldErrors.url}
        hint="An http or https URL that resolves to a public address. Private, internal and cloud metadata addresses are refused."
      >
        <Input
          type="url"
          inputMode="url"
          required
          autoFocus
          maxLength={2048}
          placeholder="https://example.com/hooks/outreach"
          value={value.url}
          aria-invalid={fieldErrors.url ? true : undefined}
          onChange={(e) => set({ url: e.target.value })}
        />
      </Field>

      <EventsFieldset value={value} set={set} fieldErrors={fieldErrors} />

      <DeliveryFields value={value} set={set} fieldErrors={fieldErrors} />

      {showActive && (
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input type="checkbox" checked={value.active} onChange={(e) => set({ active: e.target.checked })} />
          Active (paused webhooks get no new deliveries)
        </label>
      )}
      {fieldErrors.active?.map((m) => (
        <p key={m} className="text-xs text-red-600">
          {m}
        </p>
      ))}
    </form>
  );
}

/** The events to send, with a select-all box and the API's messages for the list. */
function EventsFieldset({
  value,
  set,
  fieldErrors,
}: {
  value: WebhookFormState;
  set: (patch: Partial<WebhookFormState>) => void;
  fieldErrors: Record<string, string[]>;
}) {
  const eventsId = useId();
  const all = EVENT_NAMES.every((e) => value.events.includes(e));
  const none = value.events.length === 0;
  const toggle = (e: WebhookEvent) =>
    set({ events: value.events.includes(e) ? value.events.filter((x) => x !== e) : [...value.events, e] });
  return (
    <fieldset className="space-y-2" aria-describedby={fieldErrors.events ? `${eventsId}-errors` : undefined}>
      <legend className="text-sm font-medium text-gray-700">Events</legend>
      <SelectAll checked={all} mixed={!all && !none} onChange={(v) => set({ events: v ? [...EVENT_NAMES] : [] })} />
      <div className="grid grid-cols-1 gap-x-4 gap-y-1.5 rounded-md border border-gray-200 p-3 sm:grid-cols-2">
        {EVENT_NAMES.map((e) => (
          <label key={e} className="flex items-start gap-1.5 text-sm text-gray-800" title={EVENT_HINTS[e]}>
            <input type="checkbox" className="mt-1" checked={value.events.includes(e)} onChange={() => toggle(e)} />
            <span>
              <span className="font-mono text-xs">{e}</span>
              <span className="block text-xs text-gray-500">{EVENT_HINTS[e]}</span>
            </span>
          </label>
        ))}
      </div>
      <p className="text-xs text-gray-500">
        {value.events.length === 0 ? "Pick at least one event." : `${value.events.length} of ${EVENT_NAMES.length} selected.`}
      </p>
      <div id={`${eventsId}-errors`}>
        {fieldErrors.events?.map((m) => (
          <p key={m} className="text-xs text-red-600">
            {m}
          </p>
        ))}
      </div>
    </fieldset>
  );
}

/** How often and how long a delivery is tried. */
function DeliveryFields({
  value,
  set,
  fieldErrors,
}: {
  value: WebhookFormState;
  set: (patch: Partial<WebhookFormState>) => void;
  fieldErrors: Record<string, string[]>;
}) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <Field
        label="Delivery attempts"
        errors={fieldErrors.retryAttempts}
        hint={`${RETRY_RANGE.min}–${RETRY_RANGE.max}, the first one included; retried after 30 s, 1 min, 2 min, 4 min …`}
      >
        <Input
          type="number"
          min={RETRY_RANGE.min}
          max={RETRY_RANGE.max}
          step={1}
          value={value.retryAttempts}
          onChange={(e) => set({ retryAttempts: e.target.value })}
        />
      </Field>
      <Field
        label="Timeout (ms)"
        errors={fieldErrors.timeoutMs}
        hint={`${TIMEOUT_RANGE.min.toLocaleString()}–${TIMEOUT_RANGE.max.toLocaleString()} ms to answer with a 2xx.`}
      >
        <Input
          type="number"
          min={TIMEOUT_RANGE.min}
          max={TIMEOUT_RANGE.max}
          step={500}
          value={value.timeoutMs}
          onChange={(e) => set({ timeoutMs: e.target.value })}
        />
      </Field>
    </div>
  );
}
