import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hunterProvider, listProviders } from "./providers";

/** The paid-provider shape against a local HTTP peer standing in for its API (no network). */
let server: http.Server;
let seen: URL[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(new URL(req.url ?? "/", "http://x"));
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  process.env.HUNTER_BASE_URL = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(() => {
  delete process.env.HUNTER_API_KEY;
  seen = [];
});
afterAll(() => {
  delete process.env.HUNTER_BASE_URL;
  server.close();
});

describe("the hunter provider shape", () => {
  it("is configured only by its API key, and asks nothing without it", async () => {
    expect(listProviders().find((p) => p.name === "hunter")?.configured).toBe(false);
    expect(await hunterProvider.findEmail?.({ firstName: "Ada", lastName: "Lovelace", domain: "acme.test" })).toBeNull();
    expect(seen).toHaveLength(0);
    process.env.HUNTER_API_KEY = "k1";
    expect(listProviders().find((p) => p.name === "hunter")?.configured).toBe(true);
  });

  it("sends the name, the domain and the key, and reads the address and score", async () => {
    process.env.HUNTER_API_KEY = "k1";
    answer = { status: 200, body: { data: { email: "Ada@Acme.test", score: 91 } } };
    expect(await hunterProvider.findEmail?.({ firstName: "Ada", lastName: "Lovelace", domain: "acme.test" })).toEqual({
      email: "ada@acme.test",
      confidence: 91,
    });
    expect(seen[0].pathname).toBe("/v2/email-finder");
    expect(Object.fromEntries(seen[0].searchParams)).toEqual({
      domain: "acme.test",
      first_name: "Ada",
      last_name: "Lovelace",
      api_key: "k1",
    });
  });

  it("answers null for an error or no address", async () => {
    process.env.HUNTER_API_KEY = "k1";
    answer = { status: 401, body: { errors: [] } };
    expect(await hunterProvider.findEmail?.({ firstName: "Ada", lastName: "Lovelace", domain: "acme.test" })).toBeNull();
    answer = { status: 200, body: { data: { email: null } } };
    expect(await hunterProvider.findEmail?.({ firstName: "Ada", lastName: "Lovelace", domain: "acme.test" })).toBeNull();
  });
});
