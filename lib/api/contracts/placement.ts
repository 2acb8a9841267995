import { defineRoute } from "../route";
import {
  createPlacementBody,
  listPlacementQuery,
  placementDetailSchema,
  placementListSchema,
  placementStartedSchema,
} from "../../placement/schemas";

const tag = "Deliverability";

/** Placement tests and the seed pool. */
export const placementRoutes = {
  start: defineRoute({
    method: "POST",
    path: "/placement-tests",
    tag,
    access: "write",
    body: createPlacementBody,
    errors: [404, 409],
    // Each call mails every seed: a tighter limit than the key's, as for test sends.
    extraLimit: { name: "placement-test", points: 10, durationSeconds: 60 },
    summary:
      "Send a probe from a mailbox to every seed (the workspace's isSeed mailboxes and SEED_POOL_FILE) and read where it lands. " +
      "NO_SEED_POOL at once without seeds; 409 for a seed or a mailbox whose login is failing",
    response: { status: 202, description: "`{ id, batchId, status, seedCount }`", schema: placementStartedSchema },
  }),
  list: defineRoute({
    method: "GET",
    path: "/placement-tests",
    tag,
    access: "read",
    query: listPlacementQuery,
    summary: "Past and running placement tests, newest first",
    response: { description: "`{ tests, page, limit, total }`", schema: placementListSchema },
  }),
  get: defineRoute({
    method: "GET",
    path: "/placement-tests/{id}",
    tag,
    access: "read",
    summary: "One placement test: the placement.completed fields and one result per seed (INBOX, SPAM, MISSING or PENDING while running)",
    response: { description: "The test with `results`", schema: placementDetailSchema },
  }),
};
