import { eq, sql } from "drizzle-orm";
import { workspaces } from "../../db/schema";
import { audit } from "../audit/record";
import { encryptSecret } from "../crypto/secretbox";
import { requireAccess, requireRole, withTransaction, type Ctx } from "../ctx";
import { ValidationError } from "../errors";
import { checkOutboundUrl } from "../net/ssrf";
import { describeAiError, pingEndpoint, type EndpointConfig } from "./provider";
import type { AiProviderSetting, AiProviderTest, PutAiProviderInput } from "./provider-schemas";
import {
  environmentConfig,
  forgetWorkspaceProvider,
  openKey,
  sourceOf,
  type StoredProvider,
  storedProvider,
  workspaceConfig,
} from "./resolve";

/** Settings → AI's Test waits this long for the endpoint's one token. */
export const TEST_TIMEOUT_MS = 8_000;

function view(own: StoredProvider | null): AiProviderSetting {
  const source = sourceOf(own);
  if (own) {
    return {
      configured: true,
      source,
      baseUrl: own.baseUrl,
      model: own.model,
      embeddingModel: own.embeddingModel,
      keySet: !!own.apiKeyEnc,
    };
  }
  const env = environmentConfig();
  if (!env) return { configured: false, source, baseUrl: null, model: null, embeddingModel: null, keySet: false };
  return {
    configured: true,
    source,
    baseUrl: env.baseUrl,
    model: env.model,
    embeddingModel: env.embeddingModel ?? null,
    keySet: !!env.apiKey,
  };
}

/** GET /settings/ai-provider: where the workspace's AI goes and with which models; never the key. */
export async function getAiProviderSetting(ctx: Ctx): Promise<AiProviderSetting> {
  requireAccess(ctx, "read");
  return view(await storedProvider(ctx.db, ctx.workspaceId));
}

/** The URL refused by the SSRF guard as a 400 on `baseUrl`, saying why and what an operator can do. */
async function checkBaseUrl(raw: string): Promise<URL> {
  const check = await checkOutboundUrl(raw);
  if (check.ok) return check.url;
  // The guard's reason already says, for a private host, that OUTBOUND_ALLOW_HOSTS can allow it.
  throw ValidationError.field("baseUrl", `The AI endpoint's URL ${check.reason}`);
}

/**
 * PUT /settings/ai-provider (owner or admin): the workspace's own endpoint, which wins over AI_*. The
 * URL passes the SSRF guard. `apiKey` absent keeps the stored key — only for the same origin, so that
 * a key is never sent to a host it was not entered for; null or empty stores none. The key is sealed
 * like mailbox passwords and left out of the audit log.
 */
export async function putAiProviderSetting(ctx: Ctx, input: PutAiProviderInput): Promise<AiProviderSetting> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  const url = await checkBaseUrl(input.baseUrl);
  const before = await storedProvider(ctx.db, ctx.workspaceId);
  let apiKeyEnc: string | null;
  if (input.apiKey === undefined) {
    apiKeyEnc = before?.apiKeyEnc ?? null;
    if (apiKeyEnc && before && originOf(before.baseUrl) !== url.origin) {
      throw ValidationError.field(
        "apiKey",
        `Enter the API key again: the endpoint moves from ${originOf(before.baseUrl)} to ${url.origin}, and a stored key is only kept for its own host`,
      );
    }
  } else apiKeyEnc = input.apiKey ? encryptSecret(input.apiKey) : null;
  const next: StoredProvider = {
    baseUrl: input.baseUrl,
    model: input.model,
    embeddingModel: input.embeddingModel ?? null,
    apiKeyEnc,
    updatedAt: ctx.clock.now().toISOString(),
  };
  const fields = [
    ...(["baseUrl", "model", "embeddingModel"] as const).filter((k) => before?.[k] !== next[k]),
    ...(input.apiKey !== undefined && (input.apiKey || before?.apiKeyEnc) ? ["apiKey"] : []),
  ];
  await withTransaction(ctx, async (tx, txCtx) => {
    await tx
      .update(workspaces)
      .set({ settings: sql`jsonb_set(${workspaces.settings}, '{aiProvider}', ${JSON.stringify(next)}::jsonb, true)` })
      .where(eq(workspaces.id, ctx.workspaceId));
    await audit(
      txCtx,
      "settings.changed",
      { type: "settings", label: "AI provider" },
      // The URL without its query: some endpoints take a key there, and the log never holds one.
      { settings: "ai-provider", fields, baseUrl: url.origin + url.pathname, model: next.model, embeddingModel: next.embeddingModel },
    );
  });
  forgetWorkspaceProvider(ctx.workspaceId);
  return view(next);
}

function originOf(raw: string): string {
  return URL.canParse(raw) ? new URL(raw).origin : raw;
}

/** DELETE /settings/ai-provider (owner or admin): back to the installation's AI_* endpoint, or none. Removing nothing is not an error. */
export async function deleteAiProviderSetting(ctx: Ctx): Promise<AiProviderSetting> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  await withTransaction(ctx, async (tx, txCtx) => {
    const [row] = await tx
      .update(workspaces)
      .set({ settings: sql`${workspaces.settings} - 'aiProvider'` })
      .where(sql`${workspaces.id} = ${ctx.workspaceId} and ${workspaces.settings} -> 'aiProvider' is not null`)
      .returning({ id: workspaces.id });
    if (row) await audit(txCtx, "settings.changed", { type: "settings", label: "AI provider" }, { settings: "ai-provider", removed: true });
  });
  forgetWorkspaceProvider(ctx.workspaceId);
  return view(null);
}

/**
 * POST /settings/ai-provider/test (owner or admin): one chat call of one token to the provider the
 * workspace uses now (its own, else AI_*), with a short timeout. Every failure is an answer with
 * `ok: false` and the reason, never an error of this route. It takes no AI credit.
 */
export async function testAiProvider(ctx: Ctx): Promise<AiProviderTest> {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  const own = await storedProvider(ctx.db, ctx.workspaceId);
  let cfg: EndpointConfig | undefined;
  if (own) {
    const opened = openKey(own);
    if (opened.error) return { ok: false, model: own.model, latencyMs: 0, error: opened.error };
    cfg = workspaceConfig(own, opened.key, TEST_TIMEOUT_MS);
  } else {
    const env = environmentConfig();
    cfg = env && { ...env, timeoutMs: TEST_TIMEOUT_MS };
  }
  if (!cfg) {
    return {
      ok: false,
      model: null,
      latencyMs: 0,
      error: "No AI provider is configured: set one here (or the operator sets AI_BASE_URL); drafts use the built-in templates until then",
    };
  }
  // A monotonic clock measures the call: the injectable clock is the product's time, not a stopwatch.
  const t0 = performance.now();
  try {
    await pingEndpoint(cfg, TEST_TIMEOUT_MS);
    return { ok: true, model: cfg.model, latencyMs: Math.round(performance.now() - t0) };
  } catch (e) {
    const error = describeAiError(e, { baseUrl: cfg.baseUrl, timeoutMs: TEST_TIMEOUT_MS });
    return { ok: false, model: cfg.model, latencyMs: Math.round(performance.now() - t0), error };
  }
}
