"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { type Agent, agentParams, refreshAgents, type Tone, TONES, useCampaignOptions } from "./queries";

type Draft = Pick<
  Agent,
  | "name"
  | "companyName"
  | "companyDomain"
  | "tone"
  | "additionalInfo"
  | "autonomousReplies"
  | "followUpsEnabled"
  | "followUpDays"
  | "campaignIds"
>;

/** Only the fields PATCH takes (it refuses unknown ones). */
function draftOf(a: Draft): Draft {
  const { name, companyName, companyDomain, tone, additionalInfo, autonomousReplies, followUpsEnabled, followUpDays, campaignIds } = a;
  return { name, companyName, companyDomain, tone, additionalInfo, autonomousReplies, followUpsEnabled, followUpDays, campaignIds };
}

/** The agent's fields and the campaigns it answers for; Save sends one PATCH. */
export function AgentForm({ agent }: { agent: Agent }) {
  const qc = useQueryClient();
  const [d, setD] = useState<Draft>(() => draftOf(agent));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();
  const [busy, setBusy] = useState(false);
  const set = (p: Partial<Draft>) => setD((x) => ({ ...x, ...p }));

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setMessage(undefined);
    try {
      await data(
        client.PATCH("/reply-agents/{id}", {
          params: agentParams(agent.id),
          body: {
            ...draftOf(d),
            companyName: d.companyName || null,
            companyDomain: d.companyDomain || null,
            additionalInfo: d.additionalInfo || null,
          },
        }),
      );
      await refreshAgents(qc);
      setMessage({ tone: "success", text: "Saved." });
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.fieldErrors);
      setMessage({ tone: "error", text: describeError(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={save} className="space-y-3" aria-label="Agent settings">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name" errors={errors.name}>
          <Input value={d.name} onChange={(e) => set({ name: e.target.value })} required />
        </Field>
        <Field label="Tone" errors={errors.tone}>
          <Select value={d.tone} onChange={(e) => set({ tone: e.target.value as Tone })}>
            {TONES.map((t) => (
              <option key={t} value={t}>
                {t.charAt(0) + t.slice(1).toLowerCase()}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Company name" errors={errors.companyName}>
          <Input value={d.companyName ?? ""} onChange={(e) => set({ companyName: e.target.value })} />
        </Field>
        <Field label="Company domain" errors={errors.companyDomain}>
          <Input value={d.companyDomain ?? ""} onChange={(e) => set({ companyDomain: e.target.value })} placeholder="acme.com" />
        </Field>
      </div>
      <Field label="Additional information" errors={errors.additionalInfo} hint="Anything the agent should always know or say.">
        <Textarea rows={3} value={d.additionalInfo ?? ""} onChange={(e) => set({ additionalInfo: e.target.value })} />
      </Field>
      <AgentSwitches d={d} set={set} />
      <CampaignsFieldset d={d} set={set} errors={errors.campaignIds} />
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <Button type="submit" disabled={busy}>
        Save agent
      </Button>
    </form>
  );
}

/** The campaigns whose replies this agent answers. */
function CampaignsFieldset({ d, set, errors }: { d: Draft; set: (p: Partial<Draft>) => void; errors?: string[] }) {
  const campaigns = useCampaignOptions();
  const toggleCampaign = (id: string) =>
    set({ campaignIds: d.campaignIds.includes(id) ? d.campaignIds.filter((c) => c !== id) : [...d.campaignIds, id] });
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-gray-700">Campaigns this agent answers for</legend>
      {errors?.map((m) => (
        <p key={m} className="text-xs text-red-600">
          {m}
        </p>
      ))}
      {(campaigns.data ?? []).length === 0 && <p className="text-xs text-gray-500">No campaigns yet.</p>}
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {(campaigns.data ?? []).map((c) => (
          <label key={c.id} className="flex items-center gap-1.5 text-sm text-gray-800">
            <input type="checkbox" checked={d.campaignIds.includes(c.id)} onChange={() => toggleCampaign(c.id)} />
            {c.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Whether the agent answers on its own and follows up. */
function AgentSwitches({ d, set }: { d: Draft; set: (p: Partial<Draft>) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-6 text-sm text-gray-700">
      <span className="flex items-center gap-2">
        <Switch
          checked={d.autonomousReplies}
          aria-label="Autonomous replies"
          onClick={() => set({ autonomousReplies: !d.autonomousReplies })}
        />
        Autonomous replies
      </span>
      <span className="flex items-center gap-2">
        <Switch checked={d.followUpsEnabled} aria-label="Follow-ups" onClick={() => set({ followUpsEnabled: !d.followUpsEnabled })} />
        Follow up after
        <Input
          type="number"
          min={1}
          max={60}
          className="w-16"
          aria-label="Follow-up days"
          value={d.followUpDays}
          onChange={(e) => set({ followUpDays: Number(e.target.value) })}
        />
        days without an answer
      </span>
    </div>
  );
}
