import type { Metadata } from "next";
import { AgentBuilder } from "@/components/reply-agents/agent-builder";

export const metadata: Metadata = { title: "Reply agent" };

export default async function ReplyAgentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AgentBuilder id={id} />;
}
