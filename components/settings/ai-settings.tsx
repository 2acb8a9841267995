"use client";

import Link from "next/link";
import { describeError } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { AiOptions } from "./ai-options";
import { AiProviderForm } from "./ai-provider-form";
import { useAiProvider, useAiSettings } from "./ai-queries";
import { SettingsNav } from "./settings-nav";

/**
 * Settings → AI: which OpenAI-compatible endpoint the workspace's AI uses (its own, the installation's
 * AI_* variables, or none: the built-in templates), a test call, this month's AI credits and the AI
 * settings. Owners and admins change them; a member reads them; a client seat has none of it.
 */
export function AiSettingsPage() {
  const member = useCan("member");
  const canEdit = useCan("admin");
  const provider = useAiProvider(member);
  const settings = useAiSettings(member);
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">AI</h1>
        <div className="my-3">
          <SettingsNav active="ai" />
        </div>
        <p className="max-w-2xl text-sm text-gray-600">
          Reply classification, draft replies, reply agents and copy rewrites use a language model when one is configured: any
          OpenAI-compatible endpoint (OpenAI, a hosted gateway, or your own Ollama or vLLM). Without one, Outreach uses its built-in rules
          and templates, and says so wherever it shows a generated text.{" "}
          <Link href="/docs/guides/ai" className="font-medium text-indigo-700 hover:underline">
            How AI is set up
          </Link>
        </p>
      </div>
      {!member && <Alert tone="info">AI settings are not part of a client seat.</Alert>}
      {member && !canEdit && <Alert tone="info">Only owners and admins can change these settings; you can read them.</Alert>}
      {member && (
        <>
          {provider.error && <Alert tone="error">Could not load the AI provider: {describeError(provider.error)}</Alert>}
          {provider.isPending && <p className="text-sm text-gray-600">Loading…</p>}
          {provider.data && <AiProviderForm setting={provider.data} canEdit={canEdit} />}
          {settings.error && <Alert tone="error">Could not load the AI settings: {describeError(settings.error)}</Alert>}
          {settings.data && <AiOptions settings={settings.data} canEdit={canEdit} />}
        </>
      )}
    </div>
  );
}
