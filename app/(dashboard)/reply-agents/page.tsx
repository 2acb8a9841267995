import type { Metadata } from "next";
import { AgentsView } from "@/components/reply-agents/agents-view";

export const metadata: Metadata = { title: "Reply agents" };

export default function ReplyAgentsPage() {
  return <AgentsView />;
}
