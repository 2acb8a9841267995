"use client";

import { useState } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { agentParams, type SearchResult } from "./queries";

/** "Try a question": the passages the agent would ground its answer in, best first. */
export function SearchPanel({ agentId }: { agentId: string }) {
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<SearchResult[]>();
  const [error, setError] = useState<string>();

  async function ask(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const r = await data(client.POST("/reply-agents/{id}/search", { params: agentParams(agentId), body: { query } }));
      setResults(r.results);
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <section className="space-y-3" aria-label="Try a question">
      <h2 className="text-base font-semibold text-gray-900">Try a question</h2>
      <form onSubmit={ask} className="flex gap-2">
        <Input
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="What does the pro plan cost?"
          aria-label="Question"
          required
        />
        <Button type="submit">Search</Button>
      </form>
      {error && <Alert tone="error">{error}</Alert>}
      {results && results.length === 0 && <p className="text-sm text-gray-500">Nothing in the knowledge matches this question.</p>}
      <ol className="space-y-2" aria-label="Search results">
        {(results ?? []).map((r) => (
          <li key={`${r.source} ${r.snippet.slice(0, 60)}`} className="rounded-md border border-gray-200 p-3 text-sm">
            <div className="flex items-baseline justify-between gap-2">
              <span className="font-medium text-gray-900">{r.title ?? r.source}</span>
              <span className="text-xs text-gray-500">score {r.score.toFixed(4)}</span>
            </div>
            <div className="font-mono text-xs break-all text-gray-500">{r.source}</div>
            <p className="mt-1 line-clamp-4 whitespace-pre-line text-gray-700">{r.snippet}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
