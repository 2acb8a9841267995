import { serviceEnv } from "../env";
/**
 * Finder providers: the built-in `directory` (people imported into
 * the workspace, searched in Postgres; emails found by pattern guesses verified over SMTP) and paid
 * providers plugged in behind the same interface, each configured by an API key in the environment.
 * A provider that is not configured is listed with `configured: false` and never called.
 */

export interface FoundEmail {
  email: string;
  /** The provider's own confidence, 0–100, when it gives one. */
  confidence: number | null;
}

export interface EmailLookup {
  firstName: string | null;
  lastName: string | null;
  domain: string;
}

export interface FinderProvider {
  name: string;
  /** `directory`: searches the workspace's own people; `enrichment`: finds an email for a named person. */
  kind: "directory" | "enrichment";
  configured(): boolean;
  /** A work email for the person, or null. Enrichment providers only; candidates from it are still verified over SMTP. */
  findEmail?(person: EmailLookup, fetchImpl?: typeof fetch): Promise<FoundEmail | null>;
}

export const directoryProvider: FinderProvider = {
  name: "directory",
  kind: "directory",
  configured: () => true,
};

/**
 * Hunter.io's email finder (the shape of every paid enrichment API: a GET with the name, the domain and
 * the key). Configured by HUNTER_API_KEY; HUNTER_BASE_URL points it elsewhere (a self-hosted proxy).
 */
export const hunterProvider: FinderProvider = {
  name: "hunter",
  kind: "enrichment",
  configured: () => Boolean(serviceEnv.hunterApiKey),
  async findEmail(person, fetchImpl = fetch) {
    const key = serviceEnv.hunterApiKey;
    if (!key || !person.firstName || !person.lastName) return null;
    const base = serviceEnv.hunterBaseUrl;
    const q = new URLSearchParams({ domain: person.domain, first_name: person.firstName, last_name: person.lastName, api_key: key });
    const res = await fetchImpl(`${base}/v2/email-finder?${q}`, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return null;
    const json = (await res.json()) as { data?: { email?: string | null; score?: number | null } };
    const email = json.data?.email;
    return email ? { email: email.toLowerCase(), confidence: json.data?.score ?? null } : null;
  },
};

export const finderProviders: FinderProvider[] = [directoryProvider, hunterProvider];

/** GET /finder/providers. */
export function listProviders() {
  return finderProviders.map((p) => ({ name: p.name, kind: p.kind, configured: p.configured() }));
}

/** The configured enrichment providers, asked in order for a first candidate before the pattern guesses. */
export function enrichmentProviders(): FinderProvider[] {
  return finderProviders.filter((p) => p.kind === "enrichment" && p.configured() && p.findEmail);
}
