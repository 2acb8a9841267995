import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { importSPKI, jwtVerify } from "jose";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * The token grants of the bulk flows, which oauth2-mock-server does not model: Google's JWT bearer grant
 * (RFC 7523; the assertion's RS256 signature checked with jose against the public key of a service
 * account made here, its `sub` a user of the delegated domain) and Microsoft's admin-consent page and
 * client credentials grant (app-only tokens of a consented tenant, good for that tenant's mailboxes).
 */
export async function startAppGrantPeer(opts: { now: () => Date; microsoft: { clientId: string; clientSecret: string } }) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const serviceAccount = {
    type: "service_account",
    project_id: "outreach-test",
    private_key_id: "key-1",
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: "outreach@outreach-test.iam.gserviceaccount.com",
    client_id: "112233445566778899",
    token_uri: "https://ignored.example/token",
  };
  const spki = await importSPKI(publicKey.export({ type: "spki", format: "pem" }).toString(), "RS256");
  /** Users of the Workspace domain that delegated to the service account. */
  const delegated = new Set<string>();
  /** Mailboxes of each Microsoft tenant the app may open (Exchange's mailbox permissions for its service principal). */
  const tenantMailboxes = new Map<string, Set<string>>();
  const consented = new Set<string>();
  let consentTenant = "tenant-peer";
  const tokens = new Map<string, { email?: string; tenant?: string; expiresAt: number }>();
  const stats = { jwtGrants: 0, clientCredentials: 0, refused: 0 };
  const now = () => opts.now().getTime();

  const server = createServer(async (req, res) => {
    const send = (status: number, body: Record<string, unknown>) => {
      if (status !== 200) stats.refused++;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? "/", "http://peer");
    const [, tenant, action] = url.pathname.split("/");
    if (req.method === "GET" && action === "adminconsent") {
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      // Microsoft answers with the id of the directory the admin consented in, whatever the URL named.
      const t = consentTenant;
      consented.add(t);
      for (const [k, v] of Object.entries({ admin_consent: "True", tenant: t, state: url.searchParams.get("state") ?? "" }))
        back.searchParams.set(k, v);
      return res.writeHead(302, { location: back.toString() }).end();
    }
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const form = Object.fromEntries(new URLSearchParams(raw));
    const issue = (grant: { email?: string; tenant?: string }) => {
      const reuse = [...tokens].find(([, g]) => grant.tenant && g.tenant === grant.tenant && g.expiresAt > now() + 5 * 60_000);
      const token = reuse?.[0] ?? randomUUID();
      if (!reuse) tokens.set(token, { ...grant, expiresAt: now() + 3600_000 });
      send(200, { access_token: token, token_type: "Bearer", expires_in: reuse ? Math.floor((reuse[1].expiresAt - now()) / 1000) : 3600 });
    };
    if (tenant === "google" && form.grant_type === JWT_BEARER) {
      let claims: Record<string, unknown>;
      try {
        ({ payload: claims } = await jwtVerify(form.assertion ?? "", spki, {
          algorithms: ["RS256"],
          issuer: serviceAccount.client_email,
          audience: `${base}/google/token`,
          currentDate: opts.now(),
        }));
      } catch (e) {
        return send(400, { error: "invalid_grant", error_description: `Invalid JWT Signature or claims: ${(e as Error).message}` });
      }
      if (claims.scope !== "https://mail.google.com/") return send(400, { error: "invalid_scope", error_description: "Unexpected scope" });
      const sub = String(claims.sub ?? "").toLowerCase();
      if (!delegated.has(sub)) return send(400, { error: "invalid_grant", error_description: "Invalid email or User ID" });
      stats.jwtGrants++;
      return issue({ email: sub });
    }
    if (action === "token" && form.grant_type === "client_credentials") {
      if (form.client_id !== opts.microsoft.clientId || form.client_secret !== opts.microsoft.clientSecret) {
        return send(401, { error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret provided." });
      }
      if (form.scope !== "https://outlook.office365.com/.default")
        return send(400, { error: "invalid_scope", error_description: form.scope });
      if (!consented.has(tenant)) {
        return send(400, {
          error: "unauthorized_client",
          error_description: `AADSTS700016: The app has not been consented in tenant ${tenant}.`,
        });
      }
      stats.clientCredentials++;
      return issue({ tenant });
    }
    send(400, { error: "unsupported_grant_type", error_description: String(form.grant_type) });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const valid = (email: string, token: string) => {
    const g = tokens.get(token);
    if (!g || g.expiresAt <= now()) return false;
    const e = email.toLowerCase();
    return g.email ? g.email === e : Boolean(g.tenant && tenantMailboxes.get(g.tenant)?.has(e));
  };
  return {
    url: base,
    serviceAccount,
    stats,
    /** A user of the delegating Workspace domain (JWT grants naming anyone else are refused). */
    delegate(email: string) {
      delegated.add(email.toLowerCase());
    },
    /** A mailbox of `tenant` the app may open with its app-only token. */
    addTenantMailbox(tenant: string, email: string) {
      tenantMailboxes.set(tenant, (tenantMailboxes.get(tenant) ?? new Set()).add(email.toLowerCase()));
    },
    /** The tenant (directory id) of the admin who consents next. */
    consentFor(tenant: string) {
      consentTenant = tenant;
    },
    /** The admin withdraws the consent (or the delegation): tokens stop working, new grants are refused. */
    withdraw(tenantOrEmail: string) {
      consented.delete(tenantOrEmail);
      delegated.delete(tenantOrEmail.toLowerCase());
      for (const [t, g] of tokens) if (g.tenant === tenantOrEmail || g.email === tenantOrEmail.toLowerCase()) tokens.delete(t);
    },
    validToken: valid,
    currentToken(email: string): string | undefined {
      let best: [string, number] | undefined;
      for (const [t, g] of tokens) if (valid(email, t) && (!best || g.expiresAt >= best[1])) best = [t, g.expiresAt];
      return best?.[0];
    },
    env: {
      GOOGLE_JWT_TOKEN_URL: `${base}/google/token`,
      MICROSOFT_APP_TOKEN_URL: `${base}/{tenant}/token`,
      MICROSOFT_ADMIN_CONSENT_URL: `${base}/{tenant}/adminconsent`,
    } as Record<string, string>,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
