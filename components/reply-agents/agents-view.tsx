"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useAgents } from "./queries";

const COLUMNS = 5;

/** The Reply agents page: every agent, and a name box that creates one and opens its builder. */
export function AgentsView() {
  const agents = useAgents();
  const router = useRouter();
  const [name, setName] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const a = await data(client.POST("/reply-agents", { body: { name } }));
      router.push(`/reply-agents/${encodeURIComponent(a.id)}`);
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold text-gray-900">Reply agents</h1>
        <p className="mt-1 max-w-2xl text-sm text-gray-600">
          AI responders that answer leads from your own documents and website. Attach an agent to campaigns; it drafts (or, with autonomy
          on, sends) answers grounded in the passages that best match each question.
        </p>
      </div>
      <form onSubmit={create} className="flex max-w-md items-end gap-2">
        <label className="block flex-1 space-y-1">
          <span className="text-sm font-medium text-gray-700">New agent name</span>
          <Input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Sales assistant" required />
        </label>
        <Button type="submit" disabled={busy || !name.trim()}>
          Create agent
        </Button>
      </form>
      {error && <Alert tone="error">{error}</Alert>}
      {agents.error && <Alert tone="error">Could not load agents: {describeError(agents.error)}</Alert>}
      <Table aria-label="Reply agents" aria-busy={agents.isFetching}>
        <THead>
          <tr>
            <Th>Name</Th>
            <Th>Campaigns</Th>
            <Th>Documents</Th>
            <Th>Website pages</Th>
            <Th>Mode</Th>
          </tr>
        </THead>
        <TBody>
          {(agents.data ?? []).map((a) => (
            <Tr key={a.id}>
              <Td>
                <Link href={`/reply-agents/${encodeURIComponent(a.id)}`} className="font-medium text-indigo-700 hover:underline">
                  {a.name}
                </Link>
                {a.companyName && <div className="text-xs text-gray-500">{a.companyName}</div>}
              </Td>
              <Td>{a.campaignIds.length}</Td>
              <Td>{a.documentCount}</Td>
              <Td>{a.website.pagesIndexed}</Td>
              <Td>{a.autonomousReplies ? <Badge tone="green">Autonomous</Badge> : <Badge>Drafts only</Badge>}</Td>
            </Tr>
          ))}
          <TableStatusRows columns={COLUMNS} loading={agents.isPending} empty={!agents.isPending && (agents.data ?? []).length === 0}>
            No reply agents yet.
          </TableStatusRows>
        </TBody>
      </Table>
    </div>
  );
}
