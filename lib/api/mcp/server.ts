import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { readBodyBytes } from "../../body";
import type { Ctx } from "../../ctx";
import { rateLimits } from "../../env";
import { NotFoundError, RateLimitedError } from "../../errors";
import { errorResponse, toAppError } from "../errors";
import { edgeContext, extraLimitStep, scopeStep } from "../handler";
import type { Credential } from "../request-credentials";
import { hit, rateHeaders } from "../../rate-limit";
import { toolArgs, toolInputSchema, type ToolDef } from "./kit";
import { TOOLS } from "./tools";

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));
/** The transport's own default bound on a message body. */
const MAX_MCP_BODY = 4 * 1024 * 1024;

/** A refusal as the model reads it: the REST error object (`error`, `code`, `details`) as text, so `code` is there to act on. */
function toolError(err: unknown): CallToolResult {
  const e = toAppError(err);
  const body: Record<string, unknown> = { error: e.message, code: e.code };
  if (e.details !== undefined) body.details = e.details;
  if (e.extra) Object.assign(body, e.extra);
  return { content: [{ type: "text", text: `${e.code}: ${JSON.stringify(body)}` }], isError: true };
}

async function callTool(ctx: Ctx, cred: Credential & { ok: true }, tool: ToolDef, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    // Scope first, as the REST edge does: a read key learns nothing from a write tool's validation.
    scopeStep(tool.route, ctx);
    await extraLimitStep(tool.route, cred);
    const result = await tool.run(ctx, toolArgs(tool, args));
    const value = result instanceof Response ? await result.json() : result;
    return { content: [{ type: "text", text: JSON.stringify(value ?? null) }] };
  } catch (err) {
    return toolError(err);
  }
}

/** A server for one request (stateless mode): tools/list and tools/call, acting as the request's credential. */
function mcpServer(ctx: Ctx, cred: Credential & { ok: true }): Server {
  const server = new Server({ name: "outreach", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: toolInputSchema(t) as { type: "object" },
      annotations: { readOnlyHint: t.route.access === "read" },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = BY_NAME.get(req.params.name);
    if (!tool) return toolError(new NotFoundError(`Tool ${JSON.stringify(req.params.name)}`));
    return callTool(ctx, cred, tool, (req.params.arguments ?? {}) as Record<string, unknown>);
  });
  return server;
}

function toolCallsIn(message: unknown): number {
  const all = Array.isArray(message) ? message : [message];
  return all.filter((m) => m && typeof m === "object" && (m as { method?: unknown }).method === "tools/call").length;
}

/**
 * POST /api/mcp: Streamable HTTP, stateless, JSON responses. The credential,
 * scope and rate limit are the REST edge's own steps: the request is one hit on the key's 300/min,
 * and a batch with more than one tools/call counts each further call too (docs/mcp.md).
 */
export async function handleMcp(req: Request): Promise<Response> {
  const headers: Record<string, string> = {};
  try {
    const { ctx, cred } = await edgeContext(req, headers);
    const text = req.method === "POST" ? Buffer.from(await readBodyBytes(req, MAX_MCP_BODY)).toString("utf8") : undefined;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined; // the transport answers a JSON-RPC parse error
    }
    for (let extra = toolCallsIn(parsed) - 1; extra > 0 && rateLimits.enabled; extra--) {
      const s = await hit(cred.rateKey, cred.ratePoints);
      Object.assign(headers, rateHeaders(s, ctx.clock.now()));
      if (!s.allowed) throw new RateLimitedError(`Rate limit of ${s.limit} requests per minute exceeded`, s.resetIn);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await mcpServer(ctx, cred).connect(transport);
    const forward = new Request(req.url, { method: req.method, headers: req.headers, body: text });
    const res = await transport.handleRequest(forward, parsed === undefined ? undefined : { parsedBody: parsed });
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  } catch (err) {
    const res = errorResponse(err, new Headers(headers));
    if (res.status === 401) res.headers.set("WWW-Authenticate", 'Bearer realm="outreach"');
    return res;
  }
}
