"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { agentParams, refreshAgents, type Scan, useScan } from "./queries";

const PAGE_TONE: Record<Scan["pages"][number]["status"], BadgeTone> = {
  FOUND: "gray",
  FETCHED: "blue",
  INDEXED: "green",
  SKIPPED: "yellow",
  FAILED: "red",
};

/** Website: start a crawl, watch its progress, pick fetched pages and index them into the knowledge. */
/** The scan of an agent's website: its form, the pages picked for indexing, and what the last step did. */
function useWebsitePanel(agentId: string, defaultUrl: string) {
  const qc = useQueryClient();
  const scan = useScan(agentId);
  const [url, setUrl] = useState(defaultUrl);
  const [maxPages, setMaxPages] = useState(50);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();
  const s = scan.data;
  const running = s?.status === "QUEUED" || s?.status === "RUNNING";
  const fetched = (s?.pages ?? []).filter((p) => p.status === "FETCHED" || p.status === "INDEXED");

  async function start(e: React.FormEvent) {
    e.preventDefault();
    setMessage(undefined);
    try {
      await data(client.POST("/reply-agents/{id}/website/scan", { params: agentParams(agentId), body: { url, maxPages } }));
      setSelected(new Set());
      await refreshAgents(qc);
    } catch (err) {
      setMessage({ tone: "error", text: describeError(err) });
    }
  }

  async function index() {
    setMessage(undefined);
    try {
      const r = await data(
        client.POST("/reply-agents/{id}/website/index", { params: agentParams(agentId), body: { urls: [...selected] } }),
      );
      setMessage({ tone: "success", text: `Indexed ${r.indexed} page${r.indexed === 1 ? "" : "s"} (${r.chunks} passages).` });
      setSelected(new Set());
      await refreshAgents(qc);
    } catch (err) {
      setMessage({ tone: "error", text: describeError(err) });
    }
  }

  const toggle = (u: string) =>
    setSelected((sel) => {
      const n = new Set(sel);
      if (n.has(u)) n.delete(u);
      else n.add(u);
      return n;
    });
  return { url, setUrl, maxPages, setMaxPages, selected, setSelected, message, s, running, fetched, start, index, toggle };
}

export function WebsitePanel({ agentId, defaultUrl }: { agentId: string; defaultUrl: string }) {
  const { url, setUrl, maxPages, setMaxPages, selected, setSelected, message, s, running, fetched, start, index, toggle } = useWebsitePanel(
    agentId,
    defaultUrl,
  );

  return (
    <section className="space-y-3" aria-label="Website">
      <h2 className="text-base font-semibold text-gray-900">Website</h2>
      <form onSubmit={start} className="flex flex-wrap items-end gap-2">
        <label className="block min-w-64 flex-1 space-y-1">
          <span className="text-sm font-medium text-gray-700">Start URL</span>
          <Input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://acme.com" required />
        </label>
        <label className="block space-y-1">
          <span className="text-sm font-medium text-gray-700">Max pages</span>
          <Input type="number" min={1} max={200} className="w-24" value={maxPages} onChange={(e) => setMaxPages(Number(e.target.value))} />
        </label>
        <Button type="submit" disabled={running}>
          Scan website
        </Button>
      </form>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {s?.status && (
        <div className="space-y-2" data-testid="scan-status">
          <p className="text-sm text-gray-700">
            Crawl of <span className="font-mono text-xs">{s.url}</span>: <Badge tone={running ? "blue" : "gray"}>{s.status}</Badge>
            {s.error && <span className="ml-2 text-xs text-gray-500">{s.error}</span>}
          </p>
          <Progress value={s.pagesFetched} max={Math.max(s.pagesFound, 1)} label="pages fetched" />
        </div>
      )}
      {s && s.pages.length > 0 && (
        <>
          <ul className="max-h-80 divide-y divide-gray-100 overflow-auto rounded-md border border-gray-200" aria-label="Found pages">
            {s.pages.map((p) => (
              <li key={p.url} className="flex items-center gap-2 px-3 py-1.5 text-sm">
                <input
                  type="checkbox"
                  aria-label={`Select ${p.url}`}
                  disabled={p.status !== "FETCHED" && p.status !== "INDEXED"}
                  checked={selected.has(p.url)}
                  onChange={() => toggle(p.url)}
                />
                <span className="min-w-0 flex-1 truncate">
                  <span className="text-gray-900">{p.title ?? p.url}</span>
                  {p.title && <span className="ml-2 font-mono text-xs text-gray-500">{p.url}</span>}
                </span>
                <Badge tone={PAGE_TONE[p.status]}>{p.status}</Badge>
              </li>
            ))}
          </ul>
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={() => setSelected(new Set(fetched.map((p) => p.url)))}>
              Select all fetched
            </Button>
            <Button size="sm" disabled={selected.size === 0} onClick={index}>
              Index selected ({selected.size})
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
