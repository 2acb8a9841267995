"use client";

import { useQuery, type QueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";

export type Tone = "PROFESSIONAL" | "FRIENDLY" | "CASUAL" | "FORMAL";
export const TONES: Tone[] = ["PROFESSIONAL", "FRIENDLY", "CASUAL", "FORMAL"];

export interface Agent {
  id: string;
  name: string;
  companyName: string | null;
  companyDomain: string | null;
  tone: Tone;
  additionalInfo: string | null;
  autonomousReplies: boolean;
  followUpsEnabled: boolean;
  followUpDays: number;
  campaignIds: string[];
  documentCount: number;
  website: { domain: string | null; status: string | null; pagesFound: number; pagesIndexed: number };
}

export interface AgentDocument {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  chunks: number;
  status: string;
  createdAt: string;
}

export interface Scan {
  id: string | null;
  url: string | null;
  status: "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED" | null;
  maxPages: number | null;
  pagesFound: number;
  pagesFetched: number;
  error: string | null;
  pages: { url: string; title: string | null; status: "FOUND" | "FETCHED" | "INDEXED" | "SKIPPED" | "FAILED" }[];
}

export interface SearchResult {
  source: string;
  title: string | null;
  snippet: string;
  score: number;
}

export const AGENTS_KEY = ["reply-agents"] as const;

export function agentPath(id: string, rest = ""): string {
  return `/api/v1/reply-agents/${encodeURIComponent(id)}${rest}`;
}

export function useAgents() {
  return useQuery({
    queryKey: [...AGENTS_KEY, "list"],
    queryFn: ({ signal }) => apiFetch<{ agents: Agent[] }>("/api/v1/reply-agents", { signal }).then((r) => r.agents),
  });
}

export function useAgent(id: string) {
  return useQuery({ queryKey: [...AGENTS_KEY, "one", id], queryFn: ({ signal }) => apiFetch<Agent>(agentPath(id), { signal }) });
}

export function useDocuments(id: string) {
  return useQuery({
    queryKey: [...AGENTS_KEY, "documents", id],
    queryFn: ({ signal }) => apiFetch<{ documents: AgentDocument[] }>(agentPath(id, "/documents"), { signal }).then((r) => r.documents),
  });
}

export function useScan(id: string) {
  return useQuery({
    queryKey: [...AGENTS_KEY, "scan", id],
    queryFn: ({ signal }) => apiFetch<Scan>(agentPath(id, "/website/scan"), { signal }),
    // A crawl in progress is looked at every 2 s for its progress bar.
    refetchInterval: (q) => (q.state.data?.status === "QUEUED" || q.state.data?.status === "RUNNING" ? 2_000 : false),
  });
}

/** The workspace's campaigns to attach (the plain-array list of spec 8). */
export function useCampaignOptions() {
  return useQuery({
    queryKey: ["campaigns", "agent-options"],
    queryFn: ({ signal }) => apiFetch<{ id: string; name: string; status: string }[]>("/api/v1/campaigns", { signal }),
  });
}

export function refreshAgents(qc: QueryClient): Promise<void> {
  return qc.invalidateQueries({ queryKey: AGENTS_KEY });
}

/**
 * Uploads a document with XMLHttpRequest (fetch has no upload progress): `onProgress` gets 0–1 as the
 * body goes out. Resolves with the document, rejects with the API's message.
 */
export function uploadDocument(id: string, file: File, onProgress: (f: number) => void): Promise<AgentDocument> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(new Error(`Could not read ${file.name}`));
    reader.onload = () => {
      const base64 = String(reader.result).replace(/^data:[^,]*,/, "");
      const xhr = new XMLHttpRequest();
      xhr.open("POST", agentPath(id, "/documents"));
      xhr.setRequestHeader("content-type", "application/json");
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onerror = () => reject(new Error("Could not reach the server"));
      xhr.onload = () => {
        let body: { error?: string } & Partial<AgentDocument> = {};
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          /* not JSON */
        }
        if (xhr.status >= 200 && xhr.status < 300) resolve(body as AgentDocument);
        else reject(new Error(body.error ?? `Upload failed with HTTP ${xhr.status}`));
      };
      xhr.send(JSON.stringify({ filename: file.name, mimeType: mimeOf(file), contentBase64: base64 }));
    };
    reader.readAsDataURL(file);
  });
}

/** The browser's type, or one from the extension when it gives none (some systems leave .docx untyped). */
function mimeOf(file: File): string {
  if (file.type) return file.type;
  const ext = file.name.split(".").pop()?.toLowerCase();
  if (ext === "pdf") return "application/pdf";
  if (ext === "docx") return "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  if (ext === "txt") return "text/plain";
  return "application/octet-stream";
}
