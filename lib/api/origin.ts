import { configuredAppUrl } from "../env";
import { ForbiddenError } from "../errors";

/** The methods that change something; a cross-site page must not make them with the dashboard's cookie. */
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const firstValue = (v: string | null): string | undefined => v?.split(",")[0].trim() || undefined;

function originOf(url: string): string | undefined {
  try {
    const o = new URL(url).origin;
    return o === "null" ? undefined : o;
  } catch {
    return undefined;
  }
}

/**
 * The origin the request reached, as the browser saw it: the scheme a reverse proxy reports in
 * X-Forwarded-Proto (else the request URL's), and the host it reports in X-Forwarded-Host, else the
 * Host header, else the request URL's. A browser cannot set these headers on a cross-site request.
 */
export function requestOrigin(req: Request): string {
  const url = new URL(req.url);
  const proto = firstValue(req.headers.get("x-forwarded-proto"))?.replace(/:$/, "");
  const host = firstValue(req.headers.get("x-forwarded-host")) ?? firstValue(req.headers.get("host")) ?? url.host;
  return originOf(`${proto ? `${proto}:` : url.protocol}//${host}`) ?? url.origin;
}

/** The dashboard's origin: APP_URL's when it is set, else the origin the request reached. */
export function appOrigin(req: Request, appUrl: string | undefined = configuredAppUrl()): string {
  return (appUrl && originOf(appUrl)) || requestOrigin(req);
}

/**
 * Refuses a state-changing request made with a dashboard session cookie from anywhere but the
 * dashboard's own pages (cross-site request forgery): its Origin header — or, when a browser sent
 * none, the origin of its Referer — must be the dashboard's. A request with neither is refused too;
 * browsers send Origin on every POST, PUT, PATCH and DELETE. Reads (GET, HEAD) pass. Only call this
 * for a session: an API key is not sent by the browser on its own, so it needs no such check.
 */
export function requireSameOrigin(req: Request, appUrl: string | undefined = configuredAppUrl()): void {
  if (!STATE_CHANGING.has(req.method.toUpperCase())) return;
  const expected = appOrigin(req, appUrl);
  const hint = "a dashboard session may only change data from the dashboard's own pages (scripts use an API key)";
  const origin = req.headers.get("origin");
  if (origin !== null) {
    if (originOf(origin.trim()) === expected) return;
    throw new ForbiddenError(`Cross-site request refused: its Origin is ${origin.trim() || "empty"}, not ${expected}; ${hint}`);
  }
  const referer = req.headers.get("referer");
  if (referer) {
    if (originOf(referer.trim()) === expected) return;
    throw new ForbiddenError(`Cross-site request refused: its Referer is not on ${expected}; ${hint}`);
  }
  throw new ForbiddenError(`Cross-site request refused: it has neither an Origin nor a Referer header naming ${expected}; ${hint}`);
}
