import { beforeAll, describe, expect, it } from "vitest";
import { hasRole, type Role, routeMinRole } from "../../lib/roles";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "../helpers";
import { figure } from "./figures";
import { absentLike, buildFixture, type Fixture, paramValue, SHARED_PARAMS } from "./fixture";
import { concrete, type Operation, operations } from "./routes";
import { changed, tableContents } from "./snapshot";

/**
 * The rights table (lib/roles.ts) over every route, with a dashboard session of each role in one
 * workspace and of a member of another: a role below a route's least role gets 403 in the 2.1 shape and
 * writes nothing; a role at or above it is never refused (reads with the fixture's ids, writes against
 * ids that do not exist, so that passing the gate shows as 400 or 404 and the fixture stays whole); a
 * member of another workspace gets the same answer as for an id that does not exist.
 */
process.env.RATE_LIMIT_DISABLED = "1";
process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";

let a: TestWorkspace;
let b: TestWorkspace;
let fxA: Fixture;
let ops: Operation[];
const cookies: Partial<Record<Role | "outsider", string>> = {};

beforeAll(async () => {
  [a, b] = [await makeWorkspace("roles-a"), await makeWorkspace("roles-b")];
  fxA = await buildFixture(a, "a");
  await buildFixture(b, "b");
  // Public routes (an invitation's acceptance, a password reset) take no credential at all.
  ops = (await operations()).filter((op) => (op.def.credential as string | undefined) !== "public");
  cookies.owner = await sessionCookie(a.userId);
  for (const role of ["admin", "member", "client"] as const)
    cookies[role] = await sessionCookie((await addMember(a.workspaceId, role)).userId);
  cookies.outsider = await sessionCookie(b.userId);
});

const hasBody = (op: Operation) => op.method !== "GET" && op.method !== "DELETE";
const where = (op: Operation, who: string) => `${op.method} /${op.rel} as ${who}`;
const owned = (op: Operation) => op.params.filter((n) => !(n in SHARED_PARAMS));

function ownParams(op: Operation): Record<string, string> {
  return Object.fromEntries(op.params.map((n) => [n, paramValue(fxA, op.rel, n) ?? "x_0000000000"]));
}

/** The same params with every owned id replaced by one of its shape that no row has. */
function absentParams(op: Operation): Record<string, string> {
  const own = ownParams(op);
  return Object.fromEntries(Object.entries(own).map(([n, v]) => [n, owned(op).includes(n) ? absentLike(v) : v]));
}

/** Each session acts in workspace A (the outsider in B, theirs): the members made here own a workspace of their own too. */
async function send(op: Operation, cookie: string, params: Record<string, string>) {
  const workspace = cookie === cookies.outsider ? b.workspaceId : a.workspaceId;
  return call(op.handler, op.method, concrete(op.rel, params), {
    cookie,
    params,
    headers: { "x-workspace-id": workspace },
    body: hasBody(op) ? {} : undefined,
  });
}

describe("the rights of each role over every route", () => {
  for (const role of ["client", "member", "admin", "owner"] as const) {
    it(`gives a ${role} session exactly the routes the rights table gives a ${role}`, async () => {
      const bad: string[] = [];
      let refused = 0;
      let served = 0;
      for (const op of ops) {
        const cookie = cookies[role] as string;
        const min = routeMinRole(op.def);
        if (!hasRole(role, min)) {
          const before = await tableContents();
          const r = await send(op, cookie, ownParams(op));
          refused++;
          if (r.status !== 403 || r.body?.code !== "FORBIDDEN" || typeof r.body?.error !== "string")
            bad.push(`${where(op, role)} (needs ${min}): ${r.status} ${JSON.stringify(r.body).slice(0, 160)} (want 403)`);
          const diff = changed(before, await tableContents());
          if (diff.length) bad.push(`${where(op, role)} wrote rows while refused: ${diff.join(", ")}`);
          continue;
        }
        // Reads with the fixture's ids; writes against absent ids (or an empty body), so nothing real changes.
        const write = op.method !== "GET";
        const r = await send(op, cookie, write ? absentParams(op) : ownParams(op));
        served++;
        if (r.status === 401 || r.status === 403 || r.status >= 500)
          bad.push(`${where(op, role)} (needs ${min}): ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
      }
      figure({
        suite: "auth-matrix",
        name: `${role} session: answers not as the rights table`,
        value: bad.length,
        goal: "0",
        pass: !bad.length,
      });
      figure({
        suite: "auth-matrix",
        name: `${role} session: routes refused / served`,
        value: `${refused} / ${served}`,
        goal: "—",
        pass: true,
      });
      expect(bad).toEqual([]);
      if (role === "client") expect(refused).toBeGreaterThan(served);
      if (role === "owner") expect(refused).toBe(0);
    });
  }

  it("answers a member of another workspace, signed in, as if the ids did not exist", async () => {
    const bad: string[] = [];
    let checked = 0;
    for (const op of ops) {
      if (!owned(op).some((n) => paramValue(fxA, op.rel, n))) continue;
      checked++;
      const cookie = cookies.outsider as string;
      const before = await tableContents();
      const theirs = await send(op, cookie, ownParams(op));
      const diff = changed(before, await tableContents());
      const none = await send(op, cookie, absentParams(op));
      if (diff.length) bad.push(`${where(op, "outsider")} wrote rows: ${diff.join(", ")}`);
      if (theirs.status !== none.status || theirs.body?.code !== none.body?.code)
        bad.push(
          `${where(op, "outsider")}: ${theirs.status} ${theirs.body?.code} but an absent id gives ${none.status} ${none.body?.code}`,
        );
      if (!hasBody(op) && theirs.status !== 404 && op.def.credential !== "session")
        bad.push(`${where(op, "outsider")}: ${theirs.status} (want 404)`);
    }
    figure({
      suite: "auth-matrix",
      name: `outsider session on ${checked} operations: leaks`,
      value: bad.length,
      goal: "0",
      pass: !bad.length,
    });
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });
});
