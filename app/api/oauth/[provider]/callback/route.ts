import { clientIp, sessionUserId } from "@/lib/api/request-credentials";
import { errorResponse } from "@/lib/api/errors";
import { systemCtx } from "@/lib/ctx";
import { appUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { checkedView } from "@/lib/mailboxes/oauth-connect";
import { finishConsent } from "@/lib/mailboxes/oauth-flow";
import { requireProvider } from "@/lib/oauth/providers";

/** Back to the dashboard's mailbox list with what happened, which it shows as a notice. */
function toDashboard(params: Record<string, string>): Response {
  const url = new URL(`${appUrl()}/mailboxes`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return new Response(null, { status: 303, headers: { location: url.toString(), "cache-control": "no-store" } });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page a tenant's admin sees after an admin consent. Not the dashboard: the admin is often the
 * agency's client, with no Outreach account, who was sent the link.
 */
function consentRecorded(tenantId: string): Response {
  const html =
    `<!doctype html><meta charset="utf-8"><title>Admin consent recorded</title>` +
    `<p>Admin consent recorded for the Microsoft tenant <code>${escapeHtml(tenantId)}</code>. Its mailboxes can now be connected in bulk. ` +
    "You can close this window.</p>";
  return new Response(html, { status: 200, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

/**
 * GET /api/oauth/<provider>/callback: where Google or Microsoft sends the browser after the consent.
 * A browser is redirected to /mailboxes with `oauth=connected` or `oauth=error&message=…`; a client
 * asking for JSON gets the mailbox row plus `created` (201 created, 200 replaced) or the error object.
 * A Microsoft admin consent lands here too: it records the tenant (`{ tenantId, consentedAt }`, or a
 * page saying so for a browser).
 * Never a 500 for what the provider or the browser sent: every refusal names its reason.
 */
export async function GET(req: Request, routeCtx: { params: Promise<{ provider: string }> }): Promise<Response> {
  const json = (req.headers.get("accept") ?? "").includes("application/json");
  const q = new URL(req.url).searchParams;
  try {
    const provider = requireProvider((await routeCtx.params).provider);
    const input = {
      code: q.get("code") ?? undefined,
      state: q.get("state") ?? undefined,
      error: q.get("error") ?? undefined,
      errorDescription: q.get("error_description") ?? undefined,
      sessionUserId: await sessionUserId(req),
      adminConsent: q.get("admin_consent") ?? undefined,
      tenant: q.get("tenant") ?? undefined,
    };
    const done = await finishConsent({ ...systemCtx(), ip: clientIp(req) }, provider, input); // the IP for the audit log
    if ("tenant" in done && done.tenant) {
      if (json) return Response.json(done.tenant);
      return consentRecorded(done.tenant.tenantId);
    }
    const { ctx, row, created } = done;
    const view = await checkedView(ctx, row);
    if (json) return Response.json({ ...view, created }, { status: created ? 201 : 200 });
    return toDashboard({ oauth: "connected", email: view.email, created: created ? "1" : "0" });
  } catch (e) {
    if (json) return errorResponse(e);
    if (!(e instanceof AppError)) console.error("[oauth] callback failed", e);
    const message = e instanceof AppError ? e.message : "Connecting the mailbox failed unexpectedly; try again";
    return toDashboard({ oauth: "error", message });
  }
}
