"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { AgentActivity } from "@/components/reply-agents/activity";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { AgentForm } from "./agent-form";
import { DocumentsPanel } from "./documents-panel";
import { refreshAgents, useAgent, agentParams } from "./queries";
import { SearchPanel } from "./search-panel";
import { WebsitePanel } from "./website-panel";

/** One agent: its settings, knowledge (documents, website), a box to try questions against it, and its activity. */
export function AgentBuilder({ id }: { id: string }) {
  const agent = useAgent(id);
  const router = useRouter();
  const qc = useQueryClient();

  async function remove() {
    if (!window.confirm("Delete this agent with its documents and website knowledge?")) return;
    await data(client.DELETE("/reply-agents/{id}", { params: agentParams(id) }));
    await refreshAgents(qc);
    router.push("/reply-agents");
  }

  if (agent.error) return <Alert tone="error">Could not load the agent: {describeError(agent.error)}</Alert>;
  if (!agent.data) return <p className="text-sm text-gray-500">Loading…</p>;
  const a = agent.data;
  return (
    <div className="space-y-8">
      <div className="flex items-start justify-between gap-4">
        <div>
          <Link href="/reply-agents" className="text-sm text-indigo-700 hover:underline">
            ← Reply agents
          </Link>
          <h1 className="mt-1 text-xl font-semibold text-gray-900">{a.name}</h1>
          <p className="text-sm text-gray-600">
            {a.documentCount} document{a.documentCount === 1 ? "" : "s"} · {a.website.pagesIndexed} website page
            {a.website.pagesIndexed === 1 ? "" : "s"} indexed · {a.campaignIds.length} campaign{a.campaignIds.length === 1 ? "" : "s"}
          </p>
        </div>
        <Button variant="danger" size="sm" onClick={remove}>
          Delete agent
        </Button>
      </div>
      <AgentForm key={a.id} agent={a} />
      <DocumentsPanel agentId={a.id} />
      <WebsitePanel agentId={a.id} defaultUrl={a.companyDomain ? `https://${a.companyDomain}` : ""} />
      <SearchPanel agentId={a.id} />
      <AgentActivity agentId={a.id} />
    </div>
  );
}
