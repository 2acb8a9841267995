import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { workspaces } from "../../db/schema";
import { decryptSecret } from "../crypto/secretbox";
import { aiEnv } from "../env";
import { stderrLogger } from "../log";
import { guardedFetch } from "./guarded-fetch";
import { type AiProvider, builtInProvider, type EndpointConfig, openAiCompatible } from "./provider";

/**
 * Which AI provider a workspace uses: its own endpoint (Settings → AI, stored in the workspace's
 * settings under `aiProvider`, the key sealed like mailbox passwords) wins over the installation's
 * AI_* variables; with neither, the built-in rules and templates.
 */
export type ProviderSource = "workspace" | "environment" | "none";

/** A workspace's own endpoint as stored: the key only as `encryptSecret` sealed it. */
export interface StoredProvider {
  baseUrl: string;
  model: string;
  embeddingModel: string | null;
  apiKeyEnc: string | null;
  updatedAt: string;
}

/** The workspace's stored endpoint, read now (no cache), or null. */
export async function storedProvider(db: DbOrTx, workspaceId: string): Promise<StoredProvider | null> {
  const [w] = await db.select({ settings: workspaces.settings }).from(workspaces).where(eq(workspaces.id, workspaceId));
  const p = w?.settings?.aiProvider as Partial<StoredProvider> | undefined;
  if (!p || typeof p.baseUrl !== "string" || typeof p.model !== "string") return null;
  return {
    baseUrl: p.baseUrl,
    model: p.model,
    embeddingModel: p.embeddingModel || null,
    apiKeyEnc: p.apiKeyEnc || null,
    updatedAt: String(p.updatedAt ?? ""),
  };
}

/** The installation's endpoint from AI_* (undefined without AI_BASE_URL). */
export function environmentConfig(): EndpointConfig | undefined {
  const baseUrl = aiEnv.baseUrl;
  if (!baseUrl) return undefined;
  return { baseUrl, apiKey: aiEnv.apiKey, model: aiEnv.model, embeddingModel: aiEnv.embeddingModel, timeoutMs: aiEnv.timeoutMs };
}

/** The key of a stored endpoint in clear, or an error saying why it cannot be opened (OUTREACH_SECRET changed). */
export function openKey(p: StoredProvider): { key?: string; error?: string } {
  if (!p.apiKeyEnc) return {};
  try {
    return { key: decryptSecret(p.apiKeyEnc) };
  } catch {
    return { error: "The stored API key cannot be decrypted (OUTREACH_SECRET changed since it was saved): enter it again" };
  }
}

/** A workspace's endpoint as the openai client takes it: every request through the SSRF guard. */
export function workspaceConfig(p: StoredProvider, key: string | undefined, timeoutMs = aiEnv.timeoutMs): EndpointConfig {
  return {
    baseUrl: p.baseUrl,
    apiKey: key,
    model: p.model,
    embeddingModel: p.embeddingModel ?? undefined,
    timeoutMs,
    fetch: guardedFetch(timeoutMs),
  };
}

/** One client per configuration, so that connections and the client's set-up are reused (bounded). */
const clients = new Map<string, AiProvider>();
const MAX_CLIENTS = 200;

function providerFor(kind: string, cfg: EndpointConfig): AiProvider {
  const id = [kind, cfg.baseUrl, cfg.apiKey, cfg.model, cfg.embeddingModel, cfg.timeoutMs].join("\n");
  let p = clients.get(id);
  if (!p) {
    if (clients.size >= MAX_CLIENTS) clients.clear();
    p = openAiCompatible(cfg);
    clients.set(id, p);
  }
  return p;
}

/** The installation's provider: AI_BASE_URL's endpoint, else the built-in one (read from the environment on every call). */
export function environmentProvider(): AiProvider {
  const cfg = environmentConfig();
  return cfg ? providerFor("env", cfg) : builtInProvider;
}

/**
 * How long a process trusts what it read of a workspace's endpoint. A change made through this process
 * (PUT or DELETE /settings/ai-provider) forgets it at once; other processes (the worker, other web
 * servers) see it within this time.
 */
export const PROVIDER_CACHE_MS = 10_000;
const stored = new Map<string, { at: number; value: StoredProvider | null }>();

/** Forgets what this process read of a workspace's endpoint (after it was changed or removed). */
export function forgetWorkspaceProvider(workspaceId: string): void {
  stored.delete(workspaceId);
}

async function cachedStored(db: DbOrTx, workspaceId: string): Promise<StoredProvider | null> {
  const hit = stored.get(workspaceId);
  // A monotonic clock for the cache's age: the injectable clock is the product's time, not this.
  const now = performance.now();
  if (hit && now - hit.at < PROVIDER_CACHE_MS) return hit.value;
  const value = await storedProvider(db, workspaceId);
  if (stored.size >= 10_000) stored.clear();
  stored.set(workspaceId, { at: now, value });
  return value;
}

/** The provider a workspace's AI work goes to: its own endpoint, else the installation's, else the built-in one. */
export async function aiProviderFor(db: DbOrTx, workspaceId: string): Promise<AiProvider> {
  const own = await cachedStored(db, workspaceId);
  if (!own) return environmentProvider();
  const opened = openKey(own);
  if (opened.error) stderrLogger.warn("AI provider: the workspace's stored key cannot be decrypted", { workspaceId });
  return providerFor("workspace", workspaceConfig(own, opened.key));
}

/** Where a workspace's provider comes from. */
export function sourceOf(own: StoredProvider | null): ProviderSource {
  if (own) return "workspace";
  return environmentConfig() ? "environment" : "none";
}
