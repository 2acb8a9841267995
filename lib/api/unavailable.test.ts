import { connect } from "node:net";
import { createServer } from "node:net";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { errorResponse } from "./errors";

/** A port nothing listens on: bind, read the number, close. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe("a database outage", () => {
  it("answers 503 UNAVAILABLE with Retry-After, not 500, when PostgreSQL refuses the connection", async () => {
    const sql = postgres({ host: "127.0.0.1", port: await closedPort(), connect_timeout: 2, max: 1 });
    const err = await sql`select 1`.then(
      () => undefined,
      (e: unknown) => e,
    );
    await sql.end({ timeout: 0 });
    expect(err).toBeDefined();
    const res = errorResponse(err);
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("5");
    const body = await res.json();
    expect(body).toMatchObject({ code: "UNAVAILABLE" });
    expect(typeof body.error).toBe("string");
  });

  it("answers 503 for the server's own shutdown and start-up codes, wrapped as Drizzle wraps them", () => {
    for (const code of ["57P01", "57P03", "CONNECTION_CLOSED"]) {
      const res = errorResponse(Object.assign(new Error("Failed query"), { cause: Object.assign(new Error("x"), { code }) }));
      expect(res.status).toBe(503);
    }
  });

  it("does not call a refused SMTP, IMAP or HTTP connection a database outage", async () => {
    // The socket error an SMTP or IMAP client passes on when a mail server refuses the connection.
    const refused = await new Promise<unknown>((resolve) => connect(1, "127.0.0.1").on("error", resolve));
    expect((refused as { code?: string }).code).toBe("ECONNREFUSED");
    expect(errorResponse(refused).status).toBe(500);
    expect(errorResponse(new AggregateError([refused], "every address refused")).status).toBe(500);
    expect(errorResponse(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ECONNREFUSED" })).status).toBe(500);
  });
});
